import { callApi } from "../Client.js"
import { h } from "../Dom.js"
import { errorBox } from "../Feedback.js"
import { type Mode, modeOfKey, Session } from "../Session.js"

/**
 * Sign-in with a secret key. The server is asked who the key is before anything is kept: a key it
 * refuses is never stored, and the mode shown is the one the server reports for the key.
 */
export const signInPage = (onSignedIn: () => void, wanted?: Mode) => {
  const input = h("input", {
    id: "api-key",
    name: "api-key",
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    placeholder: wanted === "live" ? "sk_live_…" : "sk_test_… or sk_live_…"
  }) as HTMLInputElement
  const outlet = h("div", { id: "sign-in-result" })
  const button = h("button", { type: "submit" }, "Sign in") as HTMLButtonElement
  const form = h(
    "form",
    { class: "sign-in", "aria-labelledby": "sign-in-title" },
    h("h1", { id: "sign-in-title" }, wanted === "live" ? "Sign in to live mode" : "Sign in to the dashboard"),
    h("p", {}, "Use a secret API key. It is kept in this browser tab only and forgotten when the tab closes."),
    h("label", { for: "api-key" }, "Secret API key"),
    input,
    button,
    outlet,
    wanted === "live" && Session.key("test") !== undefined
      ? h("button", {
        type: "button",
        class: "secondary",
        id: "back-to-test",
        onclick: () => {
          Session.switchTo("test")
          onSignedIn()
        }
      }, "Back to test mode")
      : null
  )
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    outlet.replaceChildren()
    const key = input.value.trim()
    const mode = modeOfKey(key)
    if (mode === undefined || (wanted !== undefined && mode !== wanted)) {
      outlet.replaceChildren(
        h(
          "div",
          { class: "error", role: "alert" },
          wanted === undefined
            ? "A secret key starts with sk_test_ or sk_live_."
            : `This is the ${wanted} mode sign-in: use a key that starts with sk_${wanted}_.`
        )
      )
      return
    }
    button.disabled = true
    try {
      const organization = await callApi(key, (client) => client.organization.retrieve())
      if (organization.livemode !== (mode === "live")) {
        outlet.replaceChildren(h("div", { class: "error", role: "alert" }, "The server disagrees about this key's mode; it was not kept."))
        return
      }
      input.value = ""
      Session.signIn(mode, key)
      onSignedIn()
    } catch (failure) {
      outlet.replaceChildren(errorBox(failure))
    } finally {
      button.disabled = false
    }
  })
  return h("main", { class: "centered" }, form)
}
