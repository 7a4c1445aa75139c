/**
 * The HTTP floor: a bare `node:http` server answering a small JSON body, in a process of its own,
 * under the same load generator. Nothing the service does can be faster than this.
 */
import { fork } from "node:child_process"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { closedLoop } from "./LoadGenerator.js"

if (process.argv[2] === "serve") {
  const body = JSON.stringify({ object: "payment", id: "pay_floor", status: "succeeded", amount: 1234 })
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => response.writeHead(201, { "content-type": "application/json" }).end(body))
  })
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as AddressInfo).port))
}

export const measureHttpFloor = async (connections: number, seconds: number) => {
  const child = fork(import.meta.filename, ["serve"], { execArgv: process.execArgv, stdio: "inherit" })
  const port = await new Promise<number>((resolve) => child.once("message", (message) => resolve(Number(message))))
  try {
    const result = await closedLoop({
      url: `http://127.0.0.1:${port}/v1/payments`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 1234, currency: "EUR" }),
      connections,
      seconds
    })
    return result.requestsPerSecond
  } finally {
    child.kill()
  }
}
