/** The login form in the header: register or log in, the bearer token kept for this tab (sessionStorage). */
import { reconnect, session } from "./api.js";
import { $ } from "./dom.js";
import { esc } from "./format.js";

/** Draws the form (or who is logged in); `changed` runs after a log in or out (the page redraws). */
export function renderAuth(changed: () => void): void {
  const form = $<HTMLFormElement>("#auth");
  form.innerHTML = session.token
    ? `<span class="meta">${esc(session.email ?? "signed in")}</span><button type="button" id="logout">Log out</button>`
    : `<input name="email" type="email" placeholder="email" required autocomplete="username"><input name="password" type="password" placeholder="password" required autocomplete="current-password"><button name="login">Log in</button><button type="button" id="register">Register</button><span class="meta" id="auth-error"></span>`;
  // The new connection first (its token is the session's): the redrawn page follows its topics there.
  const done = () => {
    reconnect();
    renderAuth(changed);
    changed();
  };
  $("#logout")?.addEventListener("click", () => {
    sessionStorage.clear();
    session.token = null;
    session.email = null;
    done();
  });
  const submit = async (path: string) => {
    const email = (form.elements.namedItem("email") as HTMLInputElement).value;
    const password = (form.elements.namedItem("password") as HTMLInputElement).value;
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return void ($("#auth-error").textContent = body.error?.message ?? `HTTP ${res.status}`);
    session.token = body.data.token as string;
    session.email = email;
    sessionStorage.setItem("tokenpool.token", session.token);
    sessionStorage.setItem("tokenpool.email", email);
    done();
  };
  form.onsubmit = (e) => {
    e.preventDefault();
    void submit("/auth/login");
  };
  $("#register")?.addEventListener("click", () => form.reportValidity() && void submit("/auth/register"));
}
