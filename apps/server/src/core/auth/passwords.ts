import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashes with scrypt (node:crypto), a memory-hard KDF: `scrypt$N$r$p$<salt>$<key>`
 * (salt and key base64url). The parameters travel with each hash, so raising them later keeps old
 * hashes valid.
 */

const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** scrypt needs 128 * N * r bytes; Node refuses more than 32 MiB unless told. */
const maxmemFor = (N: number, r: number) => 256 * N * r;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PARAMETERS;
  const key = await derive(password, salt, { N, r, p, maxmem: maxmemFor(N, r) }, KEY_LENGTH);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, "base64url");
  const expected = Buffer.from(parts[5]!, "base64url");
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || expected.length === 0) return false;
  const key = await derive(password, salt, { N, r, p, maxmem: maxmemFor(N, r) }, expected.length);
  return timingSafeEqual(key, expected);
}

/**
 * Credentials verified recently, so that HTTP Basic (sent with every request) costs one scrypt per
 * user and password per process, not one per request. An entry holds the hash it was verified
 * against: a changed password (or a deleted user) no longer matches it. Keys are HMACs of the
 * password under a per-process key, never the password itself.
 *
 * Safe with several server processes: the user row (and its hash) is read from the database on
 * every request, and an entry only remembers that a password matches one exact hash, a fact that
 * never changes (a new password gets a new salt, hence a new hash; a deleted user has no row).
 */
export class VerifiedCredentials {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, string>();
  constructor(private readonly maxEntries = 10_000) {}

  private id(username: string, password: string): string {
    return `${username}\u0000${createHmac("sha256", this.key).update(password).digest("base64url")}`;
  }

  /** Whether these credentials were verified against this hash before (no scrypt). */
  has(username: string, password: string, storedHash: string): boolean {
    return this.entries.get(this.id(username, password)) === storedHash;
  }

  async verify(username: string, password: string, storedHash: string): Promise<boolean> {
    const id = this.id(username, password);
    if (this.entries.get(id) === storedHash) return true;
    if (!(await verifyPassword(password, storedHash))) return false;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(id, storedHash);
    return true;
  }
}
