import { randomInt } from "node:crypto"

/**
 * A card scheme's id of a new authorization (Visa's Transaction ID, Mastercard's Trace ID), as PSPs
 * pass it on: 15 digits, like the documents' examples.
 */
export const newSchemeTransactionId = () => Array.from({ length: 15 }, () => randomInt(10)).join("")
