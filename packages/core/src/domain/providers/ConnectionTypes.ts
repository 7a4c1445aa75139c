/**
 * The connection types this service registers (`ConnectorCatalogLive`), spelled exactly as `type`
 * takes them. The catalog decides what a request may name; this list is what the API reference shows,
 * and a test holds it to the catalog, so the document never names a type the service would refuse.
 */
export const CONNECTION_TYPES = ["sandbox", "stripe", "adyen", "checkout_com", "paypal", "mollie"] as const

/** The types as the API reference's prose names them: `sandbox`, `stripe`, … or `mollie`. */
export const connectionTypesNamed = (last: "or" | "and" = "or"): string =>
  `${CONNECTION_TYPES.slice(0, -1).map((type) => `\`${type}\``).join(", ")} ${last} \`${CONNECTION_TYPES.at(-1)}\``
