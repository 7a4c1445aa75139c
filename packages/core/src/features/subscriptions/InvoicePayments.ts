import { Effect, Option } from "effect"
import type { Payment } from "../../domain/payments/Payment.js"
import type { Tenant } from "../../domain/Tenant.js"
import { InvoicesRepository } from "../../ports/InvoicesRepository.js"
import type { EventConsumer } from "../events/EventDispatch.js"
import { Payments } from "../payments/Payments.js"
import { Refunds } from "../refunds/Refunds.js"
import { BillingRecords } from "./BillingRecords.js"
import { makeOnClock } from "./BillingTime.js"
import type { InvoiceCharges } from "./InvoiceCharges.js"

/**
 * Follows invoice payments on the outbox: a payment of an invoice that succeeded later (3D Secure
 * completed, a PSP's webhook) pays it, and one that succeeded on an invoice voided meanwhile is refunded.
 */
export const makeInvoicePayments = (charges: InvoiceCharges) =>
  Effect.gen(function*() {
    const records = yield* BillingRecords
    const invoices = yield* InvoicesRepository
    const payments = yield* Payments
    const refunds = yield* Refunds
    const onClock = yield* makeOnClock

    /**
     * A charge still in flight when its subscription ended (its invoice voided meanwhile) that succeeds
     * anyway is refunded: the customer owes nothing on a void invoice. Refunding what is left of the
     * payment is safe to repeat, since the amount is reserved with the refund: a second run finds none.
     */
    const refundChargeOfVoidInvoice = (tenant: Tenant, invoiceId: string, payment: Payment) =>
      Effect.gen(function*() {
        const invoice = yield* Effect.orDie(records.invoice(tenant, invoiceId))
        if (invoice.status !== "void" || invoice.payment_id !== payment.id || payment.status !== "succeeded") return
        const refund = yield* refunds.create(tenant, payment.id, {
          reason: "invoice_void",
          metadata: { invoice: invoice.id, subscription: invoice.subscription_id }
        })
        yield* Effect.logInfo(`payment ${payment.id} of void invoice ${invoice.id} refunded by ${refund.id}`)
      }).pipe(Effect.catchTags({
        PaymentNotFound: Effect.die,
        PaymentNotRefundable: () => Effect.void,
        AmountTooLarge: () => Effect.void,
        RefundRefused: ({ refund }) => Effect.logWarning(`the refund of payment ${payment.id} of void invoice ${invoiceId} was refused`, refund.failure)
      }))

    const consumer: EventConsumer = {
      name: "subscriptions",
      consume: (organizationId, event) =>
        // Only an invoice's payment carries its invoice in its metadata (see the charge above):
        // every other payment passes without a read.
        event.type !== "payment.succeeded" || (event.data.object as Payment).metadata?.invoice === undefined
          ? Effect.void
          : Effect.gen(function*() {
            const payment = event.data.object as Payment
            const tenant = { organizationId, livemode: payment.livemode }
            const invoice = yield* invoices.findByPayment(tenant, payment.id)
            if (Option.isNone(invoice)) return
            const subscription = yield* Effect.orDie(records.subscription(tenant, invoice.value.subscription_id))
            const current = yield* Effect.orDie(payments.retrieve(tenant, payment.id))
            yield* onClock(tenant, subscription.test_clock)(Effect.zipRight(
              charges.settle(tenant, invoice.value.id, current),
              // Read after settling: a void invoice stays void, so none slips between the two.
              refundChargeOfVoidInvoice(tenant, invoice.value.id, current)
            ))
          })
    }

    return consumer
  })
