import net from "node:net";

/**
 * The addresses of the reverse proxies whose headers are believed (TRACKER_AUTH_TRUSTED_PROXIES,
 * --auth-trusted-proxies): a comma-separated list of IPv4/IPv6 addresses and CIDR ranges. An
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, as Node reports IPv4 clients of a dual-stack socket)
 * is matched as its IPv4 address.
 */
export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (parsed.prefix === undefined) this.list.addAddress(parsed.address, parsed.family);
      else this.list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    this.empty = entries.length === 0;
  }

  trusts(address: string | undefined): boolean {
    if (address === undefined || this.empty) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1]! : address;
    const family = net.isIPv4(plain) ? "ipv4" : net.isIPv6(plain) ? "ipv6" : undefined;
    return family !== undefined && this.list.check(plain, family);
  }
}

/** One entry (`10.0.0.0/8`, `::1`, `192.168.1.7`); throws a RangeError naming it when it is not one. */
export function parseProxyEntry(entry: string): { address: string; prefix?: number; family: "ipv4" | "ipv6" } {
  const [address = "", prefixText, ...rest] = entry.trim().split("/");
  const family = net.isIPv4(address) ? "ipv4" : net.isIPv6(address) ? "ipv6" : undefined;
  const max = family === "ipv4" ? 32 : 128;
  const prefix = prefixText === undefined ? undefined : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (family === undefined || rest.length > 0 || (prefix !== undefined && !(prefix >= 0 && prefix <= max)))
    throw new RangeError(`trusted proxies: "${entry}" is not an IP address or CIDR range (such as 10.0.0.0/8)`);
  return prefix === undefined ? { address, family } : { address, prefix, family };
}
