/** What the fake Adyen keeps: the payments it took, and the modifications (capture, cancel, refund) asked of them. */
export interface AdyenPayment {
  readonly pspReference: string
  readonly reference: string
  readonly amount: { readonly value: number; readonly currency: string }
  readonly metadata: Record<string, string>
  readonly returnUrl: string
  result: string
  /** The scheme's id, for a raw card (one Adyen does not tokenize). */
  readonly networkTxReference?: string
}

export interface AdyenModification {
  readonly kind: "capture" | "cancel" | "refund"
  readonly pspReference: string
  readonly paymentPspReference: string
  readonly reference: string
  readonly amount: { readonly value: number; readonly currency: string } | null
}
