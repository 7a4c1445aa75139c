import { startShop } from "./ShopServer.js"

// `pnpm --filter @orchestrator/example-embed start`: a shop on PORT (default 4000) with the core inside.
const shop = await startShop({
  port: Number(process.env.PORT ?? 4000),
  ...(process.env.DATA_DIR ? { dataDir: process.env.DATA_DIR } : {}),
  onEvent: (event) => console.log(`event ${event.type} ${event.data.object.id}`)
})
console.log(`Shop on ${shop.baseUrl}: POST /orders {"amount":2500,"currency":"EUR","token":"tok_visa"}, POST /orders/<id>/refund`)
const stop = () => void shop.close().then(() => process.exit(0))
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
