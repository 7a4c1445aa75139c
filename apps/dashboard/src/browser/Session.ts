/** Test or live: which key, and so which data, the dashboard is looking at. */
export type Mode = "test" | "live"

const STORAGE_KEY = "orchestrator.dashboard.keys"

interface Keys {
  readonly test?: string
  readonly live?: string
  readonly mode?: Mode
}

/** The key's own prefix says its mode; the server decides the same way. */
export const modeOfKey = (key: string): Mode | undefined => key.startsWith("sk_test_") ? "test" : key.startsWith("sk_live_") ? "live" : undefined

/**
 * The signed-in keys, one per mode, and the mode on screen. They live in `sessionStorage` (this tab,
 * gone when it closes), never in `localStorage` or a URL, so a link or a history entry carries none.
 */
const read = (): Keys => {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Keys
    return typeof parsed === "object" && parsed !== null ? parsed : {}
  } catch {
    return {}
  }
}

const write = (keys: Keys) => sessionStorage.setItem(STORAGE_KEY, JSON.stringify(keys))

export const Session = {
  /** The mode on screen: the last one chosen, else the one signed in to; none before the first sign-in. */
  mode: (): Mode | undefined => {
    const keys = read()
    return keys.mode ?? (keys.test !== undefined ? "test" : keys.live !== undefined ? "live" : undefined)
  },
  key: (mode: Mode): string | undefined => read()[mode],
  /** Keeps a key the server accepted and shows its mode. */
  signIn: (mode: Mode, key: string) => write({ ...read(), [mode]: key, mode }),
  /** Shows the other mode; its key is asked for when there is none yet. */
  switchTo: (mode: Mode) => write({ ...read(), mode }),
  /** Drops one mode's key (the service stopped accepting it); the other mode's stays. */
  forget: (mode: Mode) => {
    const { [mode]: _dropped, ...rest } = read()
    write(rest)
  },
  signOut: () => sessionStorage.removeItem(STORAGE_KEY)
}
