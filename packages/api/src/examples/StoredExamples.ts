// Written by `pnpm docs:examples` (apps/http/test/examples/GenerateExamples.ts); do not edit.
import operationCardFormTokenize from "../../examples/cardForm.tokenize.json" with { type: "json" }
import operationCheckoutSessionCancel from "../../examples/checkoutSession.cancel.json" with { type: "json" }
import operationCheckoutSessionConfirm from "../../examples/checkoutSession.confirm.json" with { type: "json" }
import operationCheckoutSessionReroute from "../../examples/checkoutSession.reroute.json" with { type: "json" }
import operationCheckoutSessionRetrieve from "../../examples/checkoutSession.retrieve.json" with { type: "json" }
import operationCheckoutSessionsCreate from "../../examples/checkoutSessions.create.json" with { type: "json" }
import operationCheckoutSessionsList from "../../examples/checkoutSessions.list.json" with { type: "json" }
import operationCommon from "../../examples/common.json" with { type: "json" }
import operationCustomersCreate from "../../examples/customers.create.json" with { type: "json" }
import operationCustomersList from "../../examples/customers.list.json" with { type: "json" }
import operationCustomersRetrieve from "../../examples/customers.retrieve.json" with { type: "json" }
import operationDisputesAccept from "../../examples/disputes.accept.json" with { type: "json" }
import operationDisputesEvidence from "../../examples/disputes.evidence.json" with { type: "json" }
import operationDisputesList from "../../examples/disputes.list.json" with { type: "json" }
import operationDisputesRetrieve from "../../examples/disputes.retrieve.json" with { type: "json" }
import operationDisputesSubmit from "../../examples/disputes.submit.json" with { type: "json" }
import operationEventsList from "../../examples/events.list.json" with { type: "json" }
import operationEventsRetrieve from "../../examples/events.retrieve.json" with { type: "json" }
import eventCheckoutSessionCancelled from "../../examples/events/checkout.session.cancelled.json" with { type: "json" }
import eventCheckoutSessionCompleted from "../../examples/events/checkout.session.completed.json" with { type: "json" }
import eventCheckoutSessionCreated from "../../examples/events/checkout.session.created.json" with { type: "json" }
import eventCheckoutSessionPaymentFailed from "../../examples/events/checkout.session.payment_failed.json" with { type: "json" }
import eventCheckoutSessionProcessing from "../../examples/events/checkout.session.processing.json" with { type: "json" }
import eventCheckoutSessionRerouted from "../../examples/events/checkout.session.rerouted.json" with { type: "json" }
import eventDisputeClosed from "../../examples/events/dispute.closed.json" with { type: "json" }
import eventDisputeCreated from "../../examples/events/dispute.created.json" with { type: "json" }
import eventDisputeEvidenceSubmitted from "../../examples/events/dispute.evidence_submitted.json" with { type: "json" }
import eventDisputeFundsReinstated from "../../examples/events/dispute.funds_reinstated.json" with { type: "json" }
import eventDisputeFundsWithdrawn from "../../examples/events/dispute.funds_withdrawn.json" with { type: "json" }
import eventInvoiceCreated from "../../examples/events/invoice.created.json" with { type: "json" }
import eventInvoiceMarkedUncollectible from "../../examples/events/invoice.marked_uncollectible.json" with { type: "json" }
import eventInvoicePaid from "../../examples/events/invoice.paid.json" with { type: "json" }
import eventInvoicePaymentFailed from "../../examples/events/invoice.payment_failed.json" with { type: "json" }
import eventInvoiceVoided from "../../examples/events/invoice.voided.json" with { type: "json" }
import eventPaymentCanceled from "../../examples/events/payment.canceled.json" with { type: "json" }
import eventPaymentCreated from "../../examples/events/payment.created.json" with { type: "json" }
import eventPaymentFailed from "../../examples/events/payment.failed.json" with { type: "json" }
import eventPaymentProcessing from "../../examples/events/payment.processing.json" with { type: "json" }
import eventPaymentRequiresAction from "../../examples/events/payment.requires_action.json" with { type: "json" }
import eventPaymentRequiresCapture from "../../examples/events/payment.requires_capture.json" with { type: "json" }
import eventPaymentSucceeded from "../../examples/events/payment.succeeded.json" with { type: "json" }
import eventProviderConnectionError from "../../examples/events/provider_connection.error.json" with { type: "json" }
import eventRefundFailed from "../../examples/events/refund.failed.json" with { type: "json" }
import eventRefundPending from "../../examples/events/refund.pending.json" with { type: "json" }
import eventRefundSucceeded from "../../examples/events/refund.succeeded.json" with { type: "json" }
import eventSubscriptionCanceled from "../../examples/events/subscription.canceled.json" with { type: "json" }
import eventSubscriptionCreated from "../../examples/events/subscription.created.json" with { type: "json" }
import eventSubscriptionPastDue from "../../examples/events/subscription.past_due.json" with { type: "json" }
import eventSubscriptionUnpaid from "../../examples/events/subscription.unpaid.json" with { type: "json" }
import eventSubscriptionUpdated from "../../examples/events/subscription.updated.json" with { type: "json" }
import operationFilesContents from "../../examples/files.contents.json" with { type: "json" }
import operationFilesCreate from "../../examples/files.create.json" with { type: "json" }
import operationFilesRetrieve from "../../examples/files.retrieve.json" with { type: "json" }
import operationHealthHealthz from "../../examples/health.healthz.json" with { type: "json" }
import operationHealthReadyz from "../../examples/health.readyz.json" with { type: "json" }
import operationInsightsInsights from "../../examples/insights.insights.json" with { type: "json" }
import operationInsightsPaymentTimeline from "../../examples/insights.paymentTimeline.json" with { type: "json" }
import operationInvoicesList from "../../examples/invoices.list.json" with { type: "json" }
import operationInvoicesRetrieve from "../../examples/invoices.retrieve.json" with { type: "json" }
import operationOrganizationRetrieve from "../../examples/organization.retrieve.json" with { type: "json" }
import operationOrganizationUpdate from "../../examples/organization.update.json" with { type: "json" }
import operationPaymentMethodsAccesses from "../../examples/paymentMethods.accesses.json" with { type: "json" }
import operationPaymentMethodsCreate from "../../examples/paymentMethods.create.json" with { type: "json" }
import operationPaymentMethodsDelete from "../../examples/paymentMethods.delete.json" with { type: "json" }
import operationPaymentMethodsRetrieve from "../../examples/paymentMethods.retrieve.json" with { type: "json" }
import operationPaymentReturnReturn from "../../examples/paymentReturn.return.json" with { type: "json" }
import operationPaymentsCancel from "../../examples/payments.cancel.json" with { type: "json" }
import operationPaymentsCapture from "../../examples/payments.capture.json" with { type: "json" }
import operationPaymentsCreate from "../../examples/payments.create.json" with { type: "json" }
import operationPaymentsList from "../../examples/payments.list.json" with { type: "json" }
import operationPaymentsRetrieve from "../../examples/payments.retrieve.json" with { type: "json" }
import operationPlansCreate from "../../examples/plans.create.json" with { type: "json" }
import operationPlansList from "../../examples/plans.list.json" with { type: "json" }
import operationPlansRetrieve from "../../examples/plans.retrieve.json" with { type: "json" }
import operationProvidersCreate from "../../examples/providers.create.json" with { type: "json" }
import operationProvidersDelete from "../../examples/providers.delete.json" with { type: "json" }
import operationProvidersList from "../../examples/providers.list.json" with { type: "json" }
import operationProvidersRetrieve from "../../examples/providers.retrieve.json" with { type: "json" }
import operationProvidersUpdate from "../../examples/providers.update.json" with { type: "json" }
import operationProviderWebhooksReceive from "../../examples/providerWebhooks.receive.json" with { type: "json" }
import operationRefundsCreate from "../../examples/refunds.create.json" with { type: "json" }
import operationRefundsList from "../../examples/refunds.list.json" with { type: "json" }
import operationRefundsRetrieve from "../../examples/refunds.retrieve.json" with { type: "json" }
import operationRoutingCreate from "../../examples/routing.create.json" with { type: "json" }
import operationRoutingDelete from "../../examples/routing.delete.json" with { type: "json" }
import operationRoutingEvaluate from "../../examples/routing.evaluate.json" with { type: "json" }
import operationRoutingList from "../../examples/routing.list.json" with { type: "json" }
import operationRoutingRetrieve from "../../examples/routing.retrieve.json" with { type: "json" }
import operationRoutingUpdate from "../../examples/routing.update.json" with { type: "json" }
import operationSubscriptionsCancel from "../../examples/subscriptions.cancel.json" with { type: "json" }
import operationSubscriptionsCreate from "../../examples/subscriptions.create.json" with { type: "json" }
import operationSubscriptionsList from "../../examples/subscriptions.list.json" with { type: "json" }
import operationSubscriptionsRetrieve from "../../examples/subscriptions.retrieve.json" with { type: "json" }
import operationSubscriptionsUpdate from "../../examples/subscriptions.update.json" with { type: "json" }
import operationTestClocksAdvance from "../../examples/testClocks.advance.json" with { type: "json" }
import operationTestClocksCreate from "../../examples/testClocks.create.json" with { type: "json" }
import operationTestClocksDelete from "../../examples/testClocks.delete.json" with { type: "json" }
import operationTestClocksList from "../../examples/testClocks.list.json" with { type: "json" }
import operationTestClocksRetrieve from "../../examples/testClocks.retrieve.json" with { type: "json" }
import operationWebhooksCreateEndpoint from "../../examples/webhooks.createEndpoint.json" with { type: "json" }
import operationWebhooksDeleteEndpoint from "../../examples/webhooks.deleteEndpoint.json" with { type: "json" }
import operationWebhooksListDeliveries from "../../examples/webhooks.listDeliveries.json" with { type: "json" }
import operationWebhooksListEndpoints from "../../examples/webhooks.listEndpoints.json" with { type: "json" }
import operationWebhooksResendDeliveries from "../../examples/webhooks.resendDeliveries.json" with { type: "json" }
import operationWebhooksResendDelivery from "../../examples/webhooks.resendDelivery.json" with { type: "json" }
import operationWebhooksRetrieveDelivery from "../../examples/webhooks.retrieveDelivery.json" with { type: "json" }
import operationWebhooksRetrieveEndpoint from "../../examples/webhooks.retrieveEndpoint.json" with { type: "json" }
import operationWebhooksRotateSecret from "../../examples/webhooks.rotateSecret.json" with { type: "json" }
import operationWebhooksUpdateEndpoint from "../../examples/webhooks.updateEndpoint.json" with { type: "json" }
import type { EventExample, OperationExamples } from "./StoredExample.js"

// The JSON's inferred types are wider than the interfaces (a string, not a literal); the recording wrote them to fit.
/** Every operation's stored examples, and the shared ones (`operationId` `*`). */
export const storedOperations = [
  operationCardFormTokenize,
  operationCheckoutSessionCancel,
  operationCheckoutSessionConfirm,
  operationCheckoutSessionReroute,
  operationCheckoutSessionRetrieve,
  operationCheckoutSessionsCreate,
  operationCheckoutSessionsList,
  operationCommon,
  operationCustomersCreate,
  operationCustomersList,
  operationCustomersRetrieve,
  operationDisputesAccept,
  operationDisputesEvidence,
  operationDisputesList,
  operationDisputesRetrieve,
  operationDisputesSubmit,
  operationEventsList,
  operationEventsRetrieve,
  operationFilesContents,
  operationFilesCreate,
  operationFilesRetrieve,
  operationHealthHealthz,
  operationHealthReadyz,
  operationInsightsInsights,
  operationInsightsPaymentTimeline,
  operationInvoicesList,
  operationInvoicesRetrieve,
  operationOrganizationRetrieve,
  operationOrganizationUpdate,
  operationPaymentMethodsAccesses,
  operationPaymentMethodsCreate,
  operationPaymentMethodsDelete,
  operationPaymentMethodsRetrieve,
  operationPaymentReturnReturn,
  operationPaymentsCancel,
  operationPaymentsCapture,
  operationPaymentsCreate,
  operationPaymentsList,
  operationPaymentsRetrieve,
  operationPlansCreate,
  operationPlansList,
  operationPlansRetrieve,
  operationProviderWebhooksReceive,
  operationProvidersCreate,
  operationProvidersDelete,
  operationProvidersList,
  operationProvidersRetrieve,
  operationProvidersUpdate,
  operationRefundsCreate,
  operationRefundsList,
  operationRefundsRetrieve,
  operationRoutingCreate,
  operationRoutingDelete,
  operationRoutingEvaluate,
  operationRoutingList,
  operationRoutingRetrieve,
  operationRoutingUpdate,
  operationSubscriptionsCancel,
  operationSubscriptionsCreate,
  operationSubscriptionsList,
  operationSubscriptionsRetrieve,
  operationSubscriptionsUpdate,
  operationTestClocksAdvance,
  operationTestClocksCreate,
  operationTestClocksDelete,
  operationTestClocksList,
  operationTestClocksRetrieve,
  operationWebhooksCreateEndpoint,
  operationWebhooksDeleteEndpoint,
  operationWebhooksListDeliveries,
  operationWebhooksListEndpoints,
  operationWebhooksResendDeliveries,
  operationWebhooksResendDelivery,
  operationWebhooksRetrieveDelivery,
  operationWebhooksRetrieveEndpoint,
  operationWebhooksRotateSecret,
  operationWebhooksUpdateEndpoint
] as ReadonlyArray<unknown> as ReadonlyArray<OperationExamples>

/** One stored payload per event type. */
export const storedEvents = [
  eventCheckoutSessionCancelled,
  eventCheckoutSessionCompleted,
  eventCheckoutSessionCreated,
  eventCheckoutSessionPaymentFailed,
  eventCheckoutSessionProcessing,
  eventCheckoutSessionRerouted,
  eventDisputeClosed,
  eventDisputeCreated,
  eventDisputeEvidenceSubmitted,
  eventDisputeFundsReinstated,
  eventDisputeFundsWithdrawn,
  eventInvoiceCreated,
  eventInvoiceMarkedUncollectible,
  eventInvoicePaid,
  eventInvoicePaymentFailed,
  eventInvoiceVoided,
  eventPaymentCanceled,
  eventPaymentCreated,
  eventPaymentFailed,
  eventPaymentProcessing,
  eventPaymentRequiresAction,
  eventPaymentRequiresCapture,
  eventPaymentSucceeded,
  eventProviderConnectionError,
  eventRefundFailed,
  eventRefundPending,
  eventRefundSucceeded,
  eventSubscriptionCanceled,
  eventSubscriptionCreated,
  eventSubscriptionPastDue,
  eventSubscriptionUnpaid,
  eventSubscriptionUpdated
] as ReadonlyArray<unknown> as ReadonlyArray<EventExample>
