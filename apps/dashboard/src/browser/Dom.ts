/** What `h` takes as children: nodes, text, or nothing (skipped). */
export type Child = Node | string | number | null | undefined | false | ReadonlyArray<Child>

type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>

const append = (parent: Node, child: Child): void => {
  if (child === null || child === undefined || child === false) return
  if (Array.isArray(child)) {
    for (const each of child) append(parent, each)
  } else if (child instanceof Node) {
    parent.appendChild(child)
  } else {
    parent.appendChild(document.createTextNode(String(child)))
  }
}

const setAttributes = (element: Element, attributes: Attributes) => {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === "function") {
      element.addEventListener(name.replace(/^on/, ""), value)
    } else {
      element.setAttribute(name, value === true ? "" : String(value))
    }
  }
}

/**
 * An HTML element. Text is always a text node, never parsed as markup, so nothing an API returns
 * can become script or style (the page's Content-Security-Policy forbids inline ones anyway).
 */
export const h = (tag: string, attributes: Attributes = {}, ...children: Array<Child>): HTMLElement => {
  const element = document.createElement(tag)
  setAttributes(element, attributes)
  append(element, children)
  return element
}

const SVG = "http://www.w3.org/2000/svg"

/** An SVG element, for the charts. */
export const s = (tag: string, attributes: Attributes = {}, ...children: Array<Child>): SVGElement => {
  const element = document.createElementNS(SVG, tag)
  setAttributes(element, attributes)
  append(element, children)
  return element
}

/** Replaces what `parent` shows. */
export const mount = (parent: Element, ...children: Array<Child>) => {
  parent.replaceChildren()
  append(parent, children)
}
