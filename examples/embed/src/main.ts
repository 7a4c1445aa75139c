import { startShop } from "./ShopServer.js"

// `pnpm --filter @orchestrator/example-embed start`: a shop on PORT (default 4000) of HOST (default
// 127.0.0.1, this machine only) with the core inside.
const shop = await startShop({
  port: Number(process.env.PORT ?? 4000),
  ...(process.env.HOST ? { host: process.env.HOST } : {}),
  ...(process.env.DATA_DIR ? { dataDir: process.env.DATA_DIR } : {}),
  onEvent: (event) => console.log(`event ${event.type} ${event.data.object.id}`)
})
console.log(`Shop on ${shop.baseUrl}: POST /orders {"amount":2500,"currency":"EUR","token":"tok_visa"}, POST /orders/<id>/refund`)
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  void shop.close().then(() => process.exit(0))
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
// pnpm does not pass SIGTERM on to the script it runs: when the command that started the shop is
// gone, the shop stops as on SIGTERM instead of serving on, orphaned.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) stop()
}, 1000).unref()
