import { ActionFailed } from "./Client.js"
import { h } from "./Dom.js"

/** A failure in words, announced to screen readers. */
export const errorBox = (failure: unknown) =>
  h(
    "div",
    { class: "error", role: "alert" },
    failure instanceof ActionFailed ? failure.message : "Something went wrong in the dashboard itself; reload the page."
  )

export const notice = (text: string) => h("div", { class: "notice", role: "status" }, text)

/**
 * Wires a button to an action: it is disabled while the action runs, and the outcome (or the
 * failure, in words) is shown in `outlet`.
 */
export const runAction = async (button: HTMLButtonElement, outlet: Element, action: () => Promise<string | undefined>) => {
  button.disabled = true
  outlet.replaceChildren()
  try {
    const done = await action()
    if (done !== undefined) outlet.replaceChildren(notice(done))
  } catch (failure) {
    outlet.replaceChildren(errorBox(failure))
  } finally {
    button.disabled = false
  }
}
