import { Effect } from "effect"
import type { Payment } from "../../domain/payments/Payment.js"
import type { Tenant } from "../../domain/Tenant.js"
import { isVaultToken } from "../../ports/CardVault.js"
import { Transactions } from "../../ports/Transactions.js"
import { Payments } from "../payments/Payments.js"
import { BillingRecords } from "./BillingRecords.js"
import { makeInvoiceSettlement } from "./InvoiceSettlement.js"

/** Which charge of an invoice: the first of a subscription (customer present), a period's, a dunning retry. */
export type ChargeKind = "first" | "renewal" | "retry"

/**
 * An invoice's charge, for both the first charge (a create) and the billing run: made through the
 * payments service, settled onto the invoice and its subscription, released when the subscription ends.
 */
export const makeInvoiceCharges = Effect.gen(function*() {
  const records = yield* BillingRecords
  const payments = yield* Payments
  const transactions = yield* Transactions
  const { settle, voidOpenInvoice } = yield* makeInvoiceSettlement

  /** Cancels a payment that can still be completed; one the PSP cannot cancel now is logged and left to expire. */
  const release = (tenant: Tenant, paymentId: string) =>
    payments.cancel(tenant, paymentId, {}).pipe(
      Effect.asVoid,
      Effect.catchAll((error) => Effect.logWarning(`payment ${paymentId} of an ended invoice could not be canceled now`, error))
    )

  /** After a subscription ended: its open invoice's payment, if it could still be completed, is canceled. */
  const releaseLatestPayment = (tenant: Tenant, subscriptionId: string) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      if (subscription.latest_invoice_id === null) return
      const invoice = yield* Effect.orDie(records.invoice(tenant, subscription.latest_invoice_id))
      if (invoice.status !== "void" || invoice.payment_id === null) return
      const payment = yield* Effect.orDie(payments.retrieve(tenant, invoice.payment_id))
      if (payment.status === "created" || payment.status === "requires_action" || payment.status === "requires_capture") {
        yield* release(tenant, payment.id)
      }
    })
  /**
   * Charges the invoice's amount with the subscription's stored method through the payments service
   * (attempts, routing, failover). The payment is tied to the invoice in the transaction that creates
   * it, so a charge cut short is finished, never made twice. A dunning retry of a subscription whose
   * provider was not forced is routed afresh and may land on another PSP.
   */
  const charge = (tenant: Tenant, subscriptionId: string, invoiceId: string, kind: ChargeKind) =>
    Effect.gen(function*() {
      const subscription = yield* Effect.orDie(records.subscription(tenant, subscriptionId))
      const invoice = yield* Effect.orDie(records.invoice(tenant, invoiceId))
      // The PSP that refused the previous charge of this invoice, which a routed retry passes over.
      let refusedOn: string | null = null
      if (invoice.payment_id !== null) {
        const current = yield* Effect.orDie(payments.retrieve(tenant, invoice.payment_id))
        if (current.status === "failed") refusedOn = current.provider
        if (current.status === "created" || current.status === "processing") {
          return yield* payments.resume(tenant, current.id, { closingPage: kind === "first" }).pipe(
            Effect.catchTags({
              PaymentNotFound: Effect.die,
              PaymentRefused: (refused) => Effect.succeed(refused.payment),
              ReturnUrlRequired: (required) => Effect.succeed(required.payment)
            })
          )
        }
        // Paid already (its news not yet applied), or the customer is still authenticating the first
        // charge: settling this payment is all there is to do; a new one would charge the period twice.
        if (current.status === "succeeded" || current.status === "requires_capture") return current
        if (current.status === "requires_action" && kind === "first") return current
        // An off-session charge left waiting for an authentication nobody will give: released before
        // the next try, so it can never be completed beside it.
        if (current.status === "requires_action") yield* release(tenant, current.id)
      }
      const attempt = invoice.attempt_count + 1
      // The invoice notes its payment in the transaction that creates it: both commit or neither.
      const tiedToInvoice = (paymentId: string) =>
        Effect.flatMap(
          records.lockInvoice(tenant, invoiceId),
          (locked) => records.saveInvoice(tenant, locked, { payment_id: paymentId, attempt_count: attempt })
        ).pipe(Effect.asVoid)
      const routed = kind === "retry" && !subscription.provider_forced
      // A vaulted card is any PSP's to charge: the retry tries the next one routing allows. A PSP's
      // own token stays with connections of its type, where routing afresh is all a retry can do.
      const avoid = routed && refusedOn !== null && isVaultToken(subscription.payment_method) ? [refusedOn] : []
      const noPayment = transactions.run(
        Effect.flatMap(records.lockInvoice(tenant, invoiceId), (locked) => records.saveInvoice(tenant, locked, { attempt_count: attempt }))
      ).pipe(Effect.as(null))
      // The customer is there for the first charge: a challenge without a return_url ends on our
      // page that says they may close the window (the seed's CreateSubscription has no return_url).
      return yield* payments.create(tenant, {
        amount: invoice.amount_due,
        currency: invoice.currency,
        payment_method: { type: "card", token: subscription.payment_method },
        provider: routed ? undefined : subscription.provider,
        customer_id: subscription.customer_id,
        description: `Invoice ${invoice.id} of subscription ${subscription.id}`,
        ...(kind === "first" && subscription.return_url !== null ? { return_url: subscription.return_url } : {}),
        // A charge billed on a test clock says so: lists filter by it (`test_clock=`), and its times are the clock's.
        metadata: {
          subscription: subscription.id,
          invoice: invoice.id,
          ...(subscription.test_clock === null ? {} : { test_clock: subscription.test_clock })
        }
      }, { offSession: kind !== "first", closingPage: kind === "first", whenCreated: tiedToInvoice, avoid }).pipe(
        Effect.map((payment): Payment | null => payment),
        Effect.catchTags({
          PaymentRefused: (refused) => Effect.succeed(refused.payment),
          ReturnUrlRequired: (required) => Effect.succeed(required.payment),
          ProviderNotUsable: () => noPayment,
          NoProviderAvailable: () => noPayment,
          // The subscription's customer was the organization's own when it was made, and stays so.
          PaymentCustomerNotFound: (missing) => Effect.dieMessage(`subscription ${subscription.id}: customer ${missing.id} is gone`)
        })
      )
    })
  const chargeAndSettle = (tenant: Tenant, subscriptionId: string, invoiceId: string, kind: ChargeKind) =>
    Effect.flatMap(charge(tenant, subscriptionId, invoiceId, kind), (payment) => settle(tenant, invoiceId, payment))

  return { releaseLatestPayment, voidOpenInvoice, settle, chargeAndSettle }
})

export type InvoiceCharges = Effect.Effect.Success<typeof makeInvoiceCharges>
