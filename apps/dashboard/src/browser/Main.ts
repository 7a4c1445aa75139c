import { startApp } from "./App.js"

const root = document.getElementById("app")
if (root !== null) startApp(root)
