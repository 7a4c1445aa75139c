import { Data, type Effect, type Redacted, type Schema } from "effect"
import type { Currency } from "../domain/Currency.js"
import type { DisputeEvidence, DisputeReason, EvidenceFileField } from "../domain/disputes/Dispute.js"
import type { DisputeFact } from "../domain/disputes/DisputeFact.js"
import type { FileResource } from "../domain/files/FileResource.js"
import type {
  AuthorizationOutcome,
  CaptureOutcome,
  CardDetails,
  ConnectorError,
  DisputeActionOutcome,
  ModificationOutcome,
  NativeSubscriptionReport,
  ProviderEvent,
  RefundOutcome,
  WebhookRejected
} from "../domain/providers/ConnectorOutcomes.js"
import type { ProviderConnection } from "../domain/providers/ProviderConnection.js"
import type { VaultCardAccess } from "./CardVault.js"

/** The customer, as far as we know them: PSPs use it for 3DS2 risk checks and stored cards. */
export interface CustomerDetails {
  readonly id: string
  readonly email: string | null
  readonly name: string | null
}

/** The shopper's browser, which 3DS2 needs to decide between a frictionless flow and a challenge. */
export interface BrowserDetails {
  readonly userAgent: string | null
  readonly acceptHeader: string | null
  readonly language: string | null
  readonly ipAddress: string | null
  readonly colorDepth: number | null
  readonly screenWidth: number | null
  readonly screenHeight: number | null
  readonly timeZoneOffset: number | null
  readonly javaEnabled: boolean | null
}

/**
 * Whether the card is being stored or used from storage: `initial` asks the PSP to keep it for later
 * charges (with the customer present, SCA applies); `subsequent` is such a later charge.
 */
export type StoredCredential = "none" | "initial" | "subsequent"

export interface AuthorizeRequest {
  /** Our attempt id, sent as the PSP's idempotency key: the same reference never charges twice. */
  readonly reference: string
  readonly paymentId: string
  readonly amount: number
  readonly currency: Currency
  /** A card's PSP token; a redirect method (`paypal`) has none: the customer approves at the PSP. */
  readonly paymentMethod: { readonly type: string; readonly token: string | null }
  /**
   * The card from the service's vault when `paymentMethod.token` is a vault token (`pm_…`): only a
   * connector whose definition says `rawCards` gets one, and decrypts it only to build its request.
   */
  readonly vaultCard?: VaultCardAccess
  /** `false` authorizes only; the money moves on capture. */
  readonly capture: boolean
  /**
   * Where the PSP sends the customer after a redirect: our `/v1/payments/{id}/return?token=…`. The
   * query string is part of it: without the token the way back answers 404.
   */
  readonly returnUrl: string
  readonly description: string | null
  readonly customer: CustomerDetails | null
  readonly browser: BrowserDetails | null
  /** The customer is not there (a renewal): the PSP should not challenge unless the issuer insists. */
  readonly offSession: boolean
  readonly storedCredential: StoredCredential
  /**
   * This very attempt was sent before and its answer never came (reconciliation, a client's retry).
   * The same reference still never charges twice; a PSP whose memory of idempotency keys is short
   * (Stripe's: 24 hours) looks for the payment by reference before sending again.
   */
  readonly resend?: boolean
}

/** What a PSP that runs subscriptions itself is asked to run (`engine: native`). */
export interface NativeSubscriptionRequest {
  /** Our subscription id: the PSP's idempotency key, and how its webhooks name the subscription. */
  readonly reference: string
  readonly amount: number
  readonly currency: Currency
  readonly interval: "day" | "week" | "month" | "year"
  readonly intervalCount: number
  /** The start of the first period; with a trial, the trial's end is the anchor and the first charge. */
  readonly startMillis: number
  readonly trialEndMillis: number | null
  readonly paymentMethod: { readonly type: string; readonly token: string }
  readonly customer: CustomerDetails | null
  /**
   * The customer is on one of our test clocks: the PSP keeps this subscription on a simulated clock of
   * its own (as Stripe's test clocks), which only `advance` moves; its real-time schedule leaves it alone.
   */
  readonly testClock: boolean
}

/**
 * The optional capability of a PSP that keeps subscriptions on its own schedule and clock, charges
 * each period, retries on its own policy and reports by webhook (`SubscriptionUpdated`).
 */
export interface NativeSubscriptions {
  /** Creating again under the same reference answers the first subscription. */
  readonly create: (request: NativeSubscriptionRequest) => Effect.Effect<{ readonly pspSubscriptionId: string }, ConnectorError>
  /** Ends it now, or (`atPeriodEnd`) instead of the next renewal. */
  readonly cancel: (request: {
    readonly pspSubscriptionId: string
    readonly atPeriodEnd: boolean
  }) => Effect.Effect<void, ConnectorError>
  /**
   * Moves a test-clock subscription's simulated clock to `toMillis`: the PSP does everything due by
   * then, each at its time, and answers with its reports (the same as its webhooks, which follow) and
   * when it next has something to do.
   */
  readonly advance: (request: {
    readonly pspSubscriptionId: string
    readonly toMillis: number
  }) => Effect.Effect<
    { readonly reports: ReadonlyArray<NativeSubscriptionReport>; readonly nextRunMillis: number | null },
    ConnectorError
  >
  /** The card later periods (and pending retries) are charged with. */
  readonly updatePaymentMethod: (request: {
    readonly pspSubscriptionId: string
    readonly paymentMethod: { readonly type: string; readonly token: string }
  }) => Effect.Effect<void, ConnectorError>
}

/**
 * Present when the PSP takes answers to disputes by API. Evidence goes in one call with its
 * submission (the service keeps drafts itself), so the PSP sees evidence only when it is final.
 */
/** A file given as evidence, with its bytes, for the connector to send in its PSP's way. */
export interface EvidenceFileContents {
  readonly field: EvidenceFileField
  readonly file: FileResource
  readonly contents: Uint8Array
}

export interface DisputeOperations {
  /** Whether `submitEvidence` sends `files` to the PSP; without it, evidence with files is refused before the PSP is asked. */
  readonly takesFiles?: boolean
  readonly submitEvidence: (request: {
    readonly pspDisputeId: string
    readonly pspPaymentId: string | null
    readonly reason: DisputeReason
    readonly evidence: DisputeEvidence
    /** The files `evidence.files` names, read from the file store; none when absent. */
    readonly files?: ReadonlyArray<EvidenceFileContents>
  }) => Effect.Effect<DisputeActionOutcome, ConnectorError>
  readonly accept: (request: { readonly pspDisputeId: string; readonly pspPaymentId: string | null }) => Effect.Effect<DisputeActionOutcome, ConnectorError>
  /**
   * Present when the PSP has an API to read a dispute: what it says of the dispute now, as a fact
   * (dated by the PSP where it dates its disputes, else `atMillis`, the moment of the read);
   * `undefined` when the PSP knows no such dispute or says nothing we can read.
   */
  readonly read?: (request: {
    readonly pspDisputeId: string
    readonly pspPaymentId: string | null
    readonly atMillis: number
  }) => Effect.Effect<DisputeFact | undefined, ConnectorError>
}

/**
 * What a webhook says it is about, read from its bytes alone and believed for nothing else than
 * sparing a call to the PSP: the PSP's id of the event it carries (a repeat of one already stored is
 * answered as a repeat), or the object it names (one the PSP already said is not this connection's is
 * refused again).
 */
export interface WebhookClaim {
  readonly eventId?: string
  readonly subject?: string
}

/** The raw incoming webhook: verification needs the exact bytes, before any JSON parsing. */
export interface IncomingWebhook {
  readonly body: Uint8Array
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The port every PSP implementation fills. Connectors own their wire protocol and its quirks. */
export interface PaymentConnector {
  /**
   * How long one operation may take, all its exchanges with the PSP included (the connection's
   * `timeout_ms`): past it the call is abandoned as "no answer". The service's own call timeout
   * bounds it too.
   */
  readonly deadlineMs?: number
  readonly authorize: (request: AuthorizeRequest) => Effect.Effect<AuthorizationOutcome, ConnectorError>
  readonly syncPayment: (request: {
    readonly reference: string
    readonly pspPaymentId: string | null
  }) => Effect.Effect<AuthorizationOutcome, ConnectorError>
  /** Capturing again under the same reference answers the first capture, whatever `amount` says. */
  readonly capture: (request: {
    readonly reference: string
    readonly pspPaymentId: string
    readonly amount: number
    readonly currency: Currency
  }) => Effect.Effect<CaptureOutcome, ConnectorError>
  readonly cancel: (request: {
    readonly reference: string
    readonly pspPaymentId: string
  }) => Effect.Effect<ModificationOutcome, ConnectorError>
  readonly refund: (request: {
    readonly reference: string
    readonly pspPaymentId: string
    readonly amount: number
    readonly currency: Currency
    readonly reason: string | null
  }) => Effect.Effect<RefundOutcome, ConnectorError>
  /** The PSP's ids, when known, spare a PSP without search a lookup by our reference. */
  readonly syncRefund: (request: {
    readonly reference: string
    readonly pspRefundId?: string | null
    readonly pspPaymentId?: string | null
  }) => Effect.Effect<RefundOutcome, ConnectorError>
  /** Checks a webhook with the connection's webhook secret and reads the events in it. */
  readonly verifyWebhook: (webhook: IncomingWebhook) => Effect.Effect<ReadonlyArray<ProviderEvent>, WebhookRejected>
  /**
   * For a PSP whose webhooks are read by calling it (Mollie: the payment a webhook names is fetched;
   * PayPal: the signature is verified by a call): what a webhook claims, read without any call. Its
   * presence puts the connection's webhooks under the per-connection intake limit, checked before
   * that call, so nobody can make the service spend the merchant's PSP quota by posting webhooks.
   */
  readonly webhookClaim?: (webhook: IncomingWebhook) => WebhookClaim
  /**
   * For a PSP that needs the customer's return parameters to finish an action (Adyen's
   * `/payments/details` with `redirectResult`): the query the customer came back with. Without it,
   * the return asks `syncPayment`.
   */
  readonly completeAction?: (request: ActionCompletion) => Effect.Effect<AuthorizationOutcome, ConnectorError>
  /** Present when the PSP can run subscriptions itself (`engine: native`). */
  readonly subscriptions?: NativeSubscriptions
  /** Present when the PSP takes evidence and acceptance of disputes by API. */
  readonly disputes?: DisputeOperations
  /** The body a PSP expects in answer to a webhook it sent (Adyen: `[accepted]`); a JSON receipt otherwise. */
  readonly webhookAcknowledgement?: string
}

/** The customer is back from the PSP's page with `details` (the return URL's query parameters). */
export interface ActionCompletion {
  readonly reference: string
  readonly pspPaymentId: string
  readonly amount: number
  readonly currency: Currency
  readonly capture: boolean
  readonly details: Readonly<Record<string, string>>
}

/** A connection's secrets as its connector sees them: decrypted on demand, never logged. */
export class MissingSecret extends Data.TaggedError("MissingSecret")<{ readonly what: string }> {}

/** Everything a connector is built from. Secrets are effects: decrypted only when the connector asks. */
export interface ConnectorContext {
  readonly connection: ProviderConnection
  readonly credentials: Effect.Effect<Redacted.Redacted<Readonly<Record<string, string>>>, MissingSecret>
  readonly webhookSecret: Effect.Effect<Redacted.Redacted<string>, MissingSecret>
  readonly publicBaseUrl: string
  /**
   * Where the service takes this connection's webhooks (`PublicUrls.providerWebhook`), for a PSP that
   * is told per payment where to send its news (Mollie's `webhookUrl`).
   */
  readonly webhookUrl?: string
}

/**
 * A connection type: how its `settings` look (unknown keys refused), which credentials it needs,
 * and how it makes its connector from them.
 */
export interface ConnectorDefinition<Settings = unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the settings are decoded from
  readonly settings: Schema.Schema<Settings, any>
  /** The keys a connection's `credentials` object takes, e.g. `secret_key`; no other key is accepted. */
  readonly credentialKeys: ReadonlyArray<{ readonly key: string; readonly required: boolean }>
  /** A simulated PSP that moves no money: live mode refuses it, so nothing "succeeds" for real there. */
  readonly testModeOnly?: boolean
  /**
   * The hosts a live connection's `base_url` may name: the PSP's documented API hosts (`*` stands
   * for part of one label). Without it, any public https host.
   */
  readonly liveHosts?: ReadonlyArray<string>
  /**
   * The card behind one of this PSP's documented tokens, known without calling it (the sandbox's
   * test tokens): routing uses its country before any PSP is asked, as payments and the dry run do.
   */
  readonly cardOfToken?: (token: string) => CardDetails | undefined
  /**
   * What is wrong with these credentials for a connection of this mode, found when they are saved
   * (a live key on a test connection): the credential's key and why, or `undefined`.
   */
  readonly credentialsProblem?: (
    credentials: Readonly<Record<string, string>>,
    livemode: boolean
  ) => { readonly key: string; readonly reason: string } | undefined
  /**
   * The payment methods (`payment_method.type`) this PSP takes; `["card"]` when unset. Routing never
   * sends a payment to a connection whose type cannot take its method.
   */
  readonly paymentMethods?: ReadonlyArray<string>
  /**
   * The PSP takes raw card numbers from a PCI-compliant sender: payments by a vault token (`pm_…`)
   * may route and fail over to its connections, and its `authorize` gets the card (`vaultCard`).
   */
  readonly rawCards?: boolean
  /**
   * Checkout mounts this PSP's own card form, not the vault's, though it takes raw cards (the
   * sandbox's form, whose test cards script its answers).
   */
  readonly ownCheckoutForm?: boolean
  readonly make: (context: ConnectorContext, settings: Settings) => PaymentConnector
}
