import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CardInvalid,
  CreatePaymentMethod,
  DeletedPaymentMethod,
  InvalidCursor,
  PaymentMethodAccessList,
  PaymentMethodNotFound,
  PaymentMethodResource,
  RawCardDataDisabled
} from "@orchestrator/core"
import { apiErrorOf } from "../ApiError.js"
import { Authorization } from "../Authorization.js"
import { ById, ListQuery, retrieveById } from "../Endpoints.js"

export class PaymentMethodsApi extends HttpApiGroup.make("paymentMethods")
  .add(
    HttpApiEndpoint.post("create", "/payment_methods")
      .setPayload(CreatePaymentMethod)
      .addSuccess(PaymentMethodResource, { status: 201 })
      .addError(apiErrorOf(CardInvalid))
      .addError(apiErrorOf(RawCardDataDisabled))
      .annotate(OpenApi.Summary, "Vault a card sent server to server (raw card data)")
      .annotate(
        OpenApi.Description,
        "Stores the card in the service's vault and answers its token (`pm_…`), which pays on any connection whose PSP " +
          "takes raw cards (Stripe, Adyen, Checkout.com, the sandbox), with failover across them. Only for organizations " +
          "the operator has enabled raw card data for (`ORCHESTRATOR_VAULT_RAW_CARD_ORGANIZATIONS`): sending card numbers " +
          "puts your servers in PCI DSS scope (SAQ D). The security code is kept in memory for the first authorization only. " +
          "No Idempotency-Key: a request sent twice vaults the card twice (both with the same `fingerprint`), and moves no money; " +
          "the service keeps no digest of a request that holds a card number."
      )
  )
  .add(
    retrieveById("/payment_methods/:id", PaymentMethodResource, PaymentMethodNotFound, "Retrieve a vaulted card")
      .annotate(OpenApi.Description, "The card's brand, last four digits, expiry, BIN facts and fingerprint; never its number.")
  )
  .add(
    HttpApiEndpoint.del("delete", "/payment_methods/:id")
      .setPath(ById)
      .addSuccess(DeletedPaymentMethod)
      .addError(apiErrorOf(PaymentMethodNotFound))
      .annotate(OpenApi.Summary, "Delete a vaulted card")
      .annotate(OpenApi.Description, "Destroys the card's data: its token is refused from then on, by every endpoint.")
  )
  .add(
    HttpApiEndpoint.get("accesses", "/payment_methods/:id/accesses")
      .setPath(ById)
      .setUrlParams(ListQuery({}))
      .addSuccess(PaymentMethodAccessList)
      .addError(apiErrorOf(PaymentMethodNotFound))
      .addError(apiErrorOf(InvalidCursor))
      .annotate(OpenApi.Summary, "List a vaulted card's accesses, newest first")
      .annotate(
        OpenApi.Description,
        "Every decryption of the card, append-only (PCI DSS 10.2): why (`authorization`), for which payment, to which " +
          "connection, and when. A card of another organization or mode is a 404."
      )
  )
  .middleware(Authorization)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Payment methods")
  .annotate(
    OpenApi.Description,
    "Cards held in the service's own vault, encrypted, and forwarded to whichever PSP routing or failover picks. " +
      "See /docs/guides/vault."
  )
{}
