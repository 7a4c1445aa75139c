/**
 * The database's own limit for one card payment's durable writes, measured by pgbench, not by our
 * driver: the rows a sandbox card payment writes (read from PostgreSQL's statement log of one real
 * payment), grouped into the fewest statements its guarantees allow. Three commits, because a
 * payment must be durable before the PSP is called and its outcome after it:
 *   1. the Idempotency-Key (with the payment id it reserves), the payment, its pending attempt and
 *      its `payment.created` and `payment.processing` events, in one statement;
 *   2. the sandbox PSP's charge in its books;
 *   3. the outcome: the payment moved by compare-and-set, its attempt settled, its
 *      `payment.succeeded` event, and the key completed with the response it replays.
 * Rows carry payloads the size of the service's (the event data is the payment as the API shows
 * it). `ratio_to_db_limit` is payments/s over this figure.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const METHOD = { type: "card", brand: "visa", last4: "4242", token: "tok_visa", country: "US" }

/** The payment as the API shows it, for events and the replayed response: the size matters, not the ids. */
const shown = (status: string) =>
  JSON.stringify({
    object: "payment",
    id: "pay_01M8D6D3C838RVFT85HXPKGW64VW9W",
    status,
    amount: 1234,
    amount_captured: status === "succeeded" ? 1234 : 0,
    amount_refunded: 0,
    amount_disputed: 0,
    disputed: false,
    currency: "EUR",
    provider: "sandbox_a",
    provider_payment_id: status === "succeeded" ? "ch_01M8D6D3CN9KC5YYHBDTQCP3X5J2F7" : null,
    routing: { strategy: "default", rule_id: null },
    payment_method: METHOD,
    customer_id: null,
    description: null,
    metadata: {},
    capture: true,
    off_session: false,
    return_url: null,
    next_action: null,
    failure: null,
    attempts: status === "created" ? [] : [{
      object: "payment_attempt",
      id: "att_01M8D6D3CB5BQRGRR65AS3KW21JECQ",
      provider: "sandbox_a",
      status: status === "succeeded" ? "succeeded" : "pending",
      provider_payment_id: status === "succeeded" ? "ch_01M8D6D3CN9KC5YYHBDTQCP3X5J2F7" : null,
      error_code: null,
      latency_ms: status === "succeeded" ? 3 : null,
      created_at: "2026-11-27T00:27:38.251Z"
    }],
    created_at: "2026-11-27T00:27:38.251Z",
    updated_at: "2026-11-27T00:27:38.264Z",
    livemode: false
  })

const event = (status: string) => JSON.stringify({ object: JSON.parse(shown(status)) })

/**
 * The payloads, passed as pgbench variables (`-D`): sent as parameters, as the service sends them
 * (and pgbench would read a `:name` inside a literal as a variable).
 */
const payloads = (organizationId: string, connectionId: string): Record<string, string> => ({
  org: organizationId,
  connection: connectionId,
  method: JSON.stringify(METHOD),
  routing: JSON.stringify({ strategy: "default", rule_id: null }),
  created: event("created"),
  processing: event("processing"),
  succeeded: event("succeeded"),
  response: `request:req_01M8D6D3C56FAR6Y6Q78THA08VYKGJ\n${shown("succeeded")}`,
  return_url: "http://localhost:4811/v1/payments/pay_01M8D6D3C838RVFT85HXPKGW64VW9W/return?token=1795912058.DUHCf2WbDVFG5HDSUrHLoLzANkANA4x9Hwq5550VSeY"
})

/** pgbench's script: one execution is one payment. */
export const paymentScript = () =>
  `\\set n random(1, 999999999999999)
with key as (
  insert into idempotency_keys (organization_id, livemode, key, fingerprint, resource_id, locked_until, lock_token, created_at)
  values (:org, false, 'pgb-' || :client_id || '-' || :n, '880c810c5be9003b80a08b18aeda98bfe1890332bad42d8ce860ca2c8f34883b',
    'pay_pgb_' || :client_id || '_' || :n, now() + interval '2 minutes', '4CWZ7EBZ3HNRXAF8EDF2D002', now())
  on conflict do nothing returning resource_id
), payment as (
  insert into payments (id, organization_id, livemode, status, amount, amount_captured, amount_refunded, currency, provider,
    routing, payment_method, metadata, capture, off_session, created_at, updated_at)
  select resource_id, :org, false, 'processing', 1234, 0, 0, 'EUR', 'sandbox_a', :routing::jsonb,
    :method::jsonb, '{}', true, false, now(), now() from key
  returning id
), attempt as (
  insert into payment_attempts (id, payment_id, position, provider, status, created_at)
  select 'att_pgb_' || :client_id || '_' || :n, id, 0, 'sandbox_a', 'pending', now() from payment
)
insert into events (id, organization_id, livemode, type, api_version, data, created_at)
select 'evt_pgb_' || :client_id || '_' || :n || e.suffix, :org, false, e.type, '2026-11-01', e.data::jsonb, now()
from payment, (values ('c', 'payment.created', :created),
  ('p', 'payment.processing', :processing)) as e (suffix, type, data);
insert into sandbox_charges (id, connection_id, reference, merchant_reference, amount, currency, token, capture, status,
  amount_captured, amount_refunded, return_url, created_at_millis)
values ('ch_pgb_' || :client_id || '_' || :n, :connection, 'att_pgb_' || :client_id || '_' || :n,
  'pay_pgb_' || :client_id || '_' || :n, 1234, 'EUR', 'tok_visa', true, 'succeeded', 1234, 0,
  :return_url,
  (extract(epoch from now()) * 1000)::bigint)
on conflict (connection_id, reference) do nothing returning id;
with moved as (
  update payments set status = 'succeeded', amount_captured = 1234, provider_payment_id = 'ch_pgb_' || :client_id || '_' || :n,
    updated_at = now()
  where id = 'pay_pgb_' || :client_id || '_' || :n and organization_id = :org and status = 'processing'
  returning id
), attempt as (
  update payment_attempts set status = 'succeeded', provider_payment_id = 'ch_pgb_' || :client_id || '_' || :n, latency_ms = 3
  where id = 'att_pgb_' || :client_id || '_' || :n and exists (select 1 from moved)
), event as (
  insert into events (id, organization_id, livemode, type, api_version, data, created_at)
  select 'evt_pgb_' || :client_id || '_' || :n || 's', :org, false, 'payment.succeeded', '2026-11-01', :succeeded::jsonb, now()
  from moved
), key as (
  update idempotency_keys set response_status = 201, response_body = :response,
    locked_until = null, lock_token = null
  where organization_id = :org and livemode = false and key = 'pgb-' || :client_id || '-' || :n
    and lock_token = '4CWZ7EBZ3HNRXAF8EDF2D002' and exists (select 1 from moved)
)
select count(*) from moved;
`

/** pgbench's "tps = 1234.5 (without initial connection time)". */
export const parseTps = (output: string): number => {
  const match = /^tps = ([\d.]+) \(without initial connection time\)/m.exec(output)
  if (match === null) throw new Error(`no tps in pgbench's output:\n${output}`)
  return Number(match[1])
}

const run = (file: string, args: ReadonlyArray<string>) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      file,
      args,
      { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => error ? reject(new Error(`${file} failed: ${error.message}\n${stderr}`)) : resolve(`${stdout}\n${stderr}`)
    )
  )

/**
 * Payments per second pgbench writes at `clients` connections for `seconds` (prepared statements,
 * one pgbench thread per core); its rows are removed afterwards.
 */
export const measurePgbenchLimit = async (options: {
  readonly url: string
  readonly organizationId: string
  readonly connectionId: string
  readonly clients: number
  readonly seconds: number
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orchestrator-pgbench-"))
  const script = path.join(dir, "payment.sql")
  fs.writeFileSync(script, paymentScript())
  try {
    const output = await run("pgbench", [
      "--no-vacuum",
      "--protocol=prepared",
      `--client=${options.clients}`,
      `--jobs=${Math.min(options.clients, os.cpus().length)}`,
      `--time=${options.seconds}`,
      ...Object.entries(payloads(options.organizationId, options.connectionId)).map(([name, value]) => `--define=${name}=${value}`),
      `--file=${script}`,
      options.url
    ])
    return parseTps(output)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
    await run("psql", [
      options.url,
      "-X",
      "-q",
      "-c",
      `
      delete from payment_attempts where id like 'att_pgb_%';
      delete from events where id like 'evt_pgb_%';
      delete from payments where id like 'pay_pgb_%';
      delete from sandbox_charges where id like 'ch_pgb_%';
      delete from idempotency_keys where key like 'pgb-%';`
    ])
  }
}
