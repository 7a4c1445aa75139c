import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { answeringWith } from "@orchestrator/api/ApiError"
import { paymentFailures } from "@orchestrator/api/payments/PaymentErrors"
import type { Payment } from "@orchestrator/core/payments/Payment"
import { Payments } from "@orchestrator/core/payments/Payments"
import { Effect } from "effect"

const closingPage = (payment: Payment) =>
  HttpServerResponse.text(
    `<!doctype html><meta charset="utf-8"><title>Payment ${payment.status}</title>` +
      `<p>Payment ${payment.id} is ${payment.status}. You can close this window.</p>`,
    { contentType: "text/html; charset=utf-8" }
  )

/** Back from 3D Secure: settle with the PSP, then send the customer on to the merchant. */
export const PaymentReturnHttpLive = HttpApiBuilder.group(Api, "paymentReturn", (handlers) =>
  Effect.map(Payments, (payments) =>
    handlers.handle("return", ({ path, urlParams }) =>
      payments.returnFromAction(path.id, urlParams).pipe(
        Effect.map((payment) => {
          if (payment.return_url === null) return closingPage(payment)
          const target = new URL(payment.return_url)
          target.searchParams.set("payment_id", payment.id)
          return HttpServerResponse.empty({ status: 303, headers: { location: target.toString() } })
        }),
        answeringWith(paymentFailures)
      ), { uninterruptible: true })))
