// Usernames are case-insensitive and trimmed (docs/api.md §2): every place that stores or
// looks one up goes through this, so "Alice " and "alice" are the same account everywhere
// (user record, credentials, sessions, group memberships).
export function normaliseUsername(raw: string): string {
  return raw.trim().toLowerCase();
}
