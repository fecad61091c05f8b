import { escapeHtml } from '../../http/html.js';
import { MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './invitations.schemas.js';

/**
 * The pages of the accept link: plain HTML with no script or external resource, so they work
 * without a build step and the token in the address is never sent to another site.
 */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
label { display: block; margin: 1rem 0 0.25rem; }
input { width: 100%; padding: 0.5rem; box-sizing: border-box; }
button { margin-top: 1.5rem; padding: 0.6rem 1.2rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/** The form the link opens; it posts back to the same path (relative, so it also works behind a path prefix). */
export function acceptForm(input: { token: string; email: string; organizationName: string }): string {
  return page(
    `Join ${input.organizationName}`,
    `<p>Choose your name and a password for <strong>${escapeHtml(input.email)}</strong>. You will sign in with this email address.</p>
<form method="post" action="accept">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<label for="name">Name</label>
<input id="name" name="name" autocomplete="name" required maxlength="${MAX_NAME_LENGTH}">
<label for="password">Password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}">
<button type="submit">Accept the invitation</button>
</form>`,
  );
}

export function acceptedPage(email: string): string {
  return page('Invitation accepted', `<p>Your account is active. Sign in as <strong>${escapeHtml(email)}</strong> with the password you chose.</p>`);
}

export function invitationProblemPage(detail: string): string {
  return page('Invitation', `<p>${escapeHtml(detail)}</p>`);
}
