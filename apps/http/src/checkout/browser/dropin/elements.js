// The DOM the drop-in builds: elements, and the style it links once.

var element = function (tag, attributes, children) {
  var node = document.createElement(tag)
  Object.keys(attributes || {}).forEach(function (name) {
    if (name === "text") node.textContent = attributes[name]
    else node.setAttribute(name, attributes[name])
  })
  ;(children || []).forEach(function (child) { if (child) node.appendChild(child) })
  return node
}

var ensureStyle = function () {
  if (document.querySelector("link[data-orchestrator-dropin]")) return
  document.head.appendChild(element("link", { rel: "stylesheet", href: API + "/v1/checkout/dropin.css", "data-orchestrator-dropin": "" }))
}
