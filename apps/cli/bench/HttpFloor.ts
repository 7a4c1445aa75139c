/**
 * The HTTP floor: a bare `node:http` server answering a small JSON body, in a process of its own,
 * under the same load generator. Nothing the service does can be faster than this. Its CPU per
 * request is the bench's unit of cost: a payment's CPU divided by it holds across machines and days
 * (the issue's target: at most 25 empty requests' worth).
 */
import { fork } from "node:child_process"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { closedLoop } from "./LoadGenerator.js"
import { cpuMs } from "./ProcessCpu.js"

if (process.argv[2] === "serve") {
  const body = JSON.stringify({ object: "payment", id: "pay_floor", status: "succeeded", amount: 1234 })
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => response.writeHead(201, { "content-type": "application/json" }).end(body))
  })
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as AddressInfo).port))
}

export interface HttpFloor {
  readonly requestsPerSecond: number
  /** CPU time of the bare server per answered request. */
  readonly cpuMsPerRequest: number | null
}

export const measureHttpFloor = async (connections: number, seconds: number): Promise<HttpFloor> => {
  const child = fork(import.meta.filename, ["serve"], { execArgv: process.execArgv, stdio: "inherit" })
  const port = await new Promise<number>((resolve) => child.once("message", (message) => resolve(Number(message))))
  try {
    const cpuBefore = cpuMs(child.pid!)
    const result = await closedLoop({
      url: `http://127.0.0.1:${port}/v1/payments`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 1234, currency: "EUR" }),
      connections,
      seconds
    })
    const cpuUsed = cpuMs(child.pid!) - cpuBefore
    return { requestsPerSecond: result.requestsPerSecond, cpuMsPerRequest: result.completed > 0 ? cpuUsed / result.completed : null }
  } finally {
    child.kill()
  }
}
