// Mentions the closing tag in a string: inlining must not end the element.
const marker = "</script>";
const element = document.getElementById("lifeheap-profile");
if (element) document.getElementById("app").textContent = JSON.parse(element.textContent).run.command.join(" ");
