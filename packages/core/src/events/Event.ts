import { Schema } from "effect"
import { Timestamp } from "../domain/Timestamp.js"

/** `api_version` of every event and response; dates name versions (decisions §1). */
export const API_VERSION = "2026-11-01"

/** The envelope of the seed: the affected resource, as the API showed it at that moment. */
export class Event extends Schema.Class<Event>("Event")({
  object: Schema.Literal("event"),
  id: Schema.String,
  type: Schema.String,
  api_version: Schema.String,
  created_at: Timestamp,
  livemode: Schema.Boolean,
  data: Schema.Struct({ object: Schema.Unknown })
}) {}
