import type { CardDetails } from "@orchestrator/core"

/** What the sandbox does with a payment made with a given test token. */
export type Behaviour =
  | { readonly _tag: "Approve" }
  | { readonly _tag: "Decline"; readonly code: string; readonly message: string; readonly retryable: boolean }
  | { readonly _tag: "ChallengeThenApprove" }
  /** Charges fine, but every refund of it is refused (like Stripe's `pm_card_refundFail`). */
  | { readonly _tag: "ApproveRefusingRefunds" }
  /** Charges fine, then the customer disputes it at once (like Stripe's `pm_card_createDispute`). */
  | { readonly _tag: "ApproveThenDispute" }

export interface TestCard {
  readonly token: string
  readonly number: string
  readonly card: CardDetails
  readonly behaviour: Behaviour
}

const visa = (last4: string): CardDetails => ({ brand: "visa", last4, country: "US" })

/** The sandbox's test cards, by token and by card number (for its browser tokenization). */
export const TEST_CARDS: ReadonlyArray<TestCard> = [
  { token: "tok_visa", number: "4242424242424242", card: visa("4242"), behaviour: { _tag: "Approve" } },
  {
    token: "tok_mastercard",
    number: "5555555555554444",
    card: { brand: "mastercard", last4: "4444", country: "US" },
    behaviour: { _tag: "Approve" }
  },
  {
    token: "tok_visa_fr",
    number: "4000002500000003",
    card: { brand: "visa", last4: "0003", country: "FR" },
    behaviour: { _tag: "Approve" }
  },
  {
    token: "tok_chargeDeclined",
    number: "4000000000000002",
    card: visa("0002"),
    behaviour: { _tag: "Decline", code: "card_declined", message: "Your card was declined.", retryable: false }
  },
  {
    token: "tok_insufficientFunds",
    number: "4000000000009995",
    card: visa("9995"),
    behaviour: {
      _tag: "Decline",
      code: "insufficient_funds",
      message: "Your card has insufficient funds.",
      retryable: false
    }
  },
  {
    token: "tok_threeDSecureRequired",
    number: "4000002760003184",
    card: visa("3184"),
    behaviour: { _tag: "ChallengeThenApprove" }
  },
  {
    token: "tok_processingError",
    number: "4000000000000119",
    card: visa("0119"),
    behaviour: {
      _tag: "Decline",
      code: "processing_error",
      message: "An error occurred while processing your card. Try again in a little bit.",
      retryable: true
    }
  },
  {
    token: "tok_refundFail",
    number: "4000000000005126",
    card: visa("5126"),
    behaviour: { _tag: "ApproveRefusingRefunds" }
  },
  {
    token: "tok_createDispute",
    number: "4000000000000259",
    card: visa("0259"),
    behaviour: { _tag: "ApproveThenDispute" }
  }
]

export const cardForToken = (token: string): TestCard | undefined => TEST_CARDS.find((card) => card.token === token)
export const cardForNumber = (number: string): TestCard | undefined => TEST_CARDS.find((card) => card.number === number.replace(/\s+/g, ""))
