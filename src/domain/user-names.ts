/** How exports and the review page name a user: display name, else user name, else email. */
export function userDisplayName(user: { name: string | null; userName: string | null; email: string } | null): string | null {
  return user ? (user.name ?? user.userName ?? user.email) : null;
}
