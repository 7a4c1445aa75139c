import { OpenApi } from "@effect/platform"
import { EVENT_TYPES, SIGNATURE_HEADER } from "@orchestrator/core"
import { describe, expect, it } from "vitest"
import { Api } from "../src/Api.js"
import {
  generatedText,
  operationsOf,
  operationsWithoutText,
  parametersWithoutDescription,
  propertiesWithoutDescription,
  tagsWithoutDescription
} from "./support/DocumentAudit.js"

/** The document `/v1/openapi.json` serves: the same `HttpApi` definition, no server needed. */
const document: any = OpenApi.fromApi(Api)

describe("the OpenAPI document, read as a merchant's engineer reads it", () => {
  it("is OpenAPI 3.1, which has a place for webhooks", () => {
    expect(document.openapi).toMatch(/^3\.1\./)
  })

  it("introduces the service: authentication, amounts, idempotency, errors, pagination, versioning, guides", () => {
    const introduction: string = document.info.description
    for (const topic of ["Bearer sk_test_", "minor unit", "Idempotency-Key", "request_id", "starting_after", "Service-Version"]) {
      expect(introduction).toContain(topic)
    }
    expect(introduction).toContain("/docs/guides/quick-start")
  })

  it("gives every operation a summary and a description of its own", () => {
    expect(operationsOf(document).length).toBeGreaterThan(50)
    expect(operationsWithoutText(document)).toEqual([])
  })

  it("lists, in every operation's description, each error status it declares with its codes", () => {
    const create = document.paths["/v1/payments"].post
    expect(create.description).toContain("| 402 | `payment_error` |")
    expect(create.description).toMatch(/\| 422 \| `idempotency_error` \| `idempotency_key_reused` \|/)
    for (const { label, spec } of operationsOf(document)) {
      for (const status of Object.keys(spec.responses).filter((status) => Number(status) >= 400)) {
        expect(spec.description, `${label} ${status}`).toContain(`| ${status} |`)
      }
    }
  })

  it("describes every parameter: path, query and header", () => {
    expect(parametersWithoutDescription(document)).toEqual([])
  })

  it("describes every tag an operation uses", () => {
    expect(tagsWithoutDescription(document)).toEqual([])
  })

  it("describes every property of every schema, following $refs", () => {
    expect(propertiesWithoutDescription(document)).toEqual([])
  })

  it("has no title or description made from a validation filter, and keeps the constraints", () => {
    expect(generatedText(document)).toEqual([])
    const key = document.paths["/v1/payments"].post.parameters.find((parameter: any) => parameter.name === "idempotency-key")
    expect(key.schema).toMatchObject({ minLength: 1, maxLength: 255 })
    expect(document.components.schemas.Amount).toMatchObject({ type: "integer", minimum: 1, maximum: 99_999_999 })
  })

  it("lists every event type the service emits under webhooks, with its envelope and data.object schema", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort())
    for (const type of EVENT_TYPES) {
      const delivery = document.webhooks[type].post
      expect(delivery.description, type).toMatch(/\w/)
      const schema = delivery.requestBody.content["application/json"].schema
      expect(schema.properties.type, type).toMatchObject({ enum: [type] })
      expect(schema.properties.data.properties.object, type).toBeDefined()
      // The header the sender signs with, as the catalogue names it.
      expect(delivery.parameters.map((header: any) => header.name.toLowerCase())).toContain(SIGNATURE_HEADER)
    }
    expect(document.webhooks["payment.succeeded"].post.requestBody.content["application/json"].schema.properties.data)
      .toMatchObject({ properties: { object: { allOf: [{ $ref: "#/components/schemas/Payment" }] } } })
  })

  it("explains the webhook signature and the verifier beside the catalogue", () => {
    const webhooks = document.tags.find((tag: any) => tag.name === "Webhooks")
    for (const detail of ["Service-Signature", "HMAC-SHA256", "300", "webhook-verify"]) {
      expect(webhooks.description).toContain(detail)
    }
  })
})
