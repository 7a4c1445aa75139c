import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Api } from "@orchestrator/api/Api"
import { PaymentList } from "@orchestrator/api/PaymentsApi"
import { CreatePayment, Payment } from "@orchestrator/core/payments/Payment"
import { Payments } from "@orchestrator/core/payments/Payments"
import { toList } from "@orchestrator/core/domain/Pagination"
import { CurrentTenant } from "@orchestrator/core/domain/Tenant"
import { Effect, Option, Schema } from "effect"
import { errorResponse, failWithDomainError, fromDomainError } from "./ErrorBodies.js"
import { idempotentEndpoint } from "./IdempotentEndpoint.js"
import { respond } from "./Responses.js"

const encodeCreate = Schema.encodeSync(CreatePayment)

export const PaymentsHttpLive = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    return handlers
      .handle(
        "create",
        ({ headers, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotentEndpoint({
              key: headers["idempotency-key"],
              method: "POST",
              path: "/v1/payments",
              body: encodeCreate(payload),
              success: Payment,
              status: 201,
              run: ({ attach, recovered }) =>
                Option.match(recovered, {
                  onNone: () => payments.create(tenant, payload, attach),
                  onSome: (id) => payments.resume(tenant, id)
                }).pipe(Effect.catchAll(failWithDomainError))
            })),
        // A client hanging up must not stop a payment half way.
        { uninterruptible: true }
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const { limit, starting_after, ...filter } = urlParams
          const page = yield* payments.list(yield* CurrentTenant, filter, {
            limit: limit ?? 20,
            startingAfter: starting_after
          })
          return toList(page)
        }).pipe(Effect.catchAll(failWithDomainError), respond(PaymentList)))
      .handle("retrieve", ({ path }) =>
        Effect.flatMap(CurrentTenant, (tenant) => payments.retrieve(tenant, path.id)).pipe(
          Effect.catchAll(failWithDomainError),
          respond(Payment)
        ))
      .handle(
        "capture",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotentEndpoint({
              key: headers["idempotency-key"],
              method: "POST",
              path: `/v1/payments/${path.id}/capture`,
              body: payload,
              success: Payment,
              status: 200,
              run: () => payments.capture(tenant, path.id, payload ?? {}).pipe(Effect.catchAll(failWithDomainError))
            })),
        { uninterruptible: true }
      )
      .handle(
        "cancel",
        ({ headers, path, payload }) =>
          Effect.flatMap(CurrentTenant, (tenant) =>
            idempotentEndpoint({
              key: headers["idempotency-key"],
              method: "POST",
              path: `/v1/payments/${path.id}/cancel`,
              body: payload,
              success: Payment,
              status: 200,
              run: () => payments.cancel(tenant, path.id, payload ?? {}).pipe(Effect.catchAll(failWithDomainError))
            })),
        { uninterruptible: true }
      )
  }))

const closingPage = (payment: Payment) =>
  HttpServerResponse.text(
    `<!doctype html><meta charset="utf-8"><title>Payment ${payment.status}</title>` +
      `<p>Payment ${payment.id} is ${payment.status}. You can close this window.</p>`,
    { contentType: "text/html; charset=utf-8" }
  )

/** Back from 3D Secure: settle with the PSP, then send the customer on to the merchant. */
export const PaymentReturnHttpLive = HttpApiBuilder.group(Api, "paymentReturn", (handlers) =>
  Effect.map(Payments, (payments) =>
    handlers.handle("return", ({ path }) =>
      payments.returnFromAction(path.id).pipe(
        Effect.map((payment) => {
          if (payment.return_url === null) return closingPage(payment)
          const target = new URL(payment.return_url)
          target.searchParams.set("payment_id", payment.id)
          return HttpServerResponse.empty({ status: 303, headers: { location: target.toString() } })
        }),
        Effect.catchAll((error) => Effect.map(fromDomainError(error), errorResponse))
      ), { uninterruptible: true })))
