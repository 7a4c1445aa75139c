import { PGlite } from "@electric-sql/pglite"
const t0 = Date.now()
const db = await PGlite.create({ dataDir: "/tmp/pgl-data" })
console.log("start ms", Date.now() - t0)
await db.exec("create table if not exists t (id text primary key, n bigint, j jsonb, ts timestamptz(3), b boolean)")
await db.query("insert into t values ($1,$2,$3::jsonb,$4::timestamptz,$5) on conflict do nothing", ["a", 5, JSON.stringify({x:[1,2]}), "2026-11-22T08:54:45.123Z", true])
const r = await db.query("select * from t")
console.log(r.rows, typeof r.rows[0].n, r.rows[0].ts instanceof Date, r.affectedRows)
const r2 = await db.query("update t set n = n + 1 where id = $1 returning n", ["a"])
console.log(r2, await db.query("select 1 as x", [], { rowMode: "array" }))
try { await db.query("select * from nope") } catch (e) { console.log("err", e.message, e.code) }
const t1 = Date.now(); const c = await db.clone(); console.log("clone ms", Date.now()-t1)
const t2 = Date.now(); const m = await PGlite.create(); console.log("mem start ms", Date.now()-t2)
await db.close()
