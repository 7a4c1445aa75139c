import { h } from "./Dom.js"

/**
 * Asks before an action that changes money or state. Resolves true only on the confirm button;
 * Escape, the cancel button or closing the dialog resolve false.
 */
export const confirmAction = (title: string, detail: string, confirmLabel: string): Promise<boolean> =>
  new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" }) as HTMLDialogElement
    const finish = (answer: boolean) => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    dialog.append(
      h("h2", { id: "confirm-title" }, title),
      h("p", {}, detail),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => finish(false) }, "Cancel"),
        h("button", { type: "button", class: "danger", "data-confirm": "", onclick: () => finish(true) }, confirmLabel)
      )
    )
    dialog.addEventListener("cancel", () => resolve(false))
    document.body.append(dialog)
    dialog.showModal()
  })
