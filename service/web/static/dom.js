// Building the page's elements: shared by app.js and table.js, which both draw with it. Children
// are appended as nodes or text, never parsed as markup, so nothing the API returns can inject any.

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.setAttribute("class", value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// An HTML element: h("p", { class: "meta" }, "text", h("strong", {}, "more")).
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

// An SVG element, the same way: s("svg", { viewBox: "0 0 10 10" }, s("circle", { r: 4 })).
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}
