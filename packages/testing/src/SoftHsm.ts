import { Redacted } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

/** Debian's SoftHSM PKCS#11 library (`apt-get install softhsm2`). */
export const SOFTHSM_MODULE = "/usr/lib/softhsm/libsofthsm2.so"

/**
 * A fresh SoftHSM token of this test's own: a temporary token directory, a softhsm2.conf naming it
 * (SOFTHSM2_CONF, read by the library at each C_Initialize in this process), and a token initialized
 * there with `softhsm2-util`. What a PKCS#11 key provider needs to log in to it.
 */
export const softHsmToken = (label = "orchestrator-test", pin = "123456") => {
  const dir = mkdtempSync(path.join(tmpdir(), "softhsm-"))
  const conf = path.join(dir, "softhsm2.conf")
  writeFileSync(conf, `directories.tokendir = ${dir}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`)
  process.env["SOFTHSM2_CONF"] = conf
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "so-pin-654321"], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: "ignore"
  })
  return { module: SOFTHSM_MODULE, token: label, pin: Redacted.make(pin), conf, dir }
}
