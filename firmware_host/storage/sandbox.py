"""The network the table service may use: a systemd drop-in written from the config.

`deploy/zebra-table.service` has no network at all (PrivateNetwork=yes, AF_UNIX only). The web
pages (`[web]`), the venue's broker (`[venue]`) and remote play's (`[remote]`) need one: deploy/install.sh writes
`zebra-table.service.d/network.conf` from this module on every run, opening the network only as
far as the config asks. Both off: no network. On: IPv4 and IPv6 sockets, and where every address
the service talks to is known (pages on a loopback address, a broker given by IP address or as
localhost) only those addresses (IPAddressAllow=/IPAddressDeny=).

    python -m firmware_host.storage.sandbox /etc/zebra-table/table.toml   # prints the drop-in
    python -m firmware_host.storage.sandbox --none                        # the no-network one
"""

from __future__ import annotations

import ipaddress
import sys

from firmware_host.storage.config import ConfigError, TableConfig, load_config

HEADER = ("# Written by deploy/install.sh from /etc/zebra-table/table.toml ([web], [venue], [remote]) on every\n"
          "# run: edit the config and run it again, not this file.\n[Service]\n")
NO_NETWORK = "PrivateNetwork=yes\nRestrictAddressFamilies=AF_UNIX\n"


def host_address(host: str) -> str | None:
    """The IPAddressAllow= word for a host: an IP address, "localhost", or None (a name)."""
    if host == "localhost":
        return "localhost"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None  # resolved when the service runs: its addresses (and the DNS servers') are unknown
    return "localhost" if address.is_loopback else str(address)


def dropin_text(cfg: TableConfig | None) -> str:
    """The drop-in for a config (None: a config that does not load gets no network)."""
    web = cfg is not None and cfg.web.enabled
    venue = cfg.venue if cfg is not None and cfg.venue is not None and cfg.venue.enabled else None
    remote = cfg.remote if cfg is not None and cfg.remote is not None and cfg.remote.enabled else None
    if cfg is None or not (web or venue or remote):
        return HEADER + "# neither the web pages, the venue nor remote play are on: no network\n" + NO_NETWORK
    uses, allow, unknown = [], set(), []
    if web:
        uses.append(f"web pages on {cfg.web.host}:{cfg.web.port}")
        if cfg.web.loopback:
            allow.add("localhost")
        else:
            unknown.append("the phones on the table's network can have any address")
    for what, broker in (("venue", venue), ("remote play", remote)):
        if broker is None:
            continue
        uses.append(f"{what} broker {broker.host}:{broker.port}")
        word = host_address(broker.host)
        if word is None:
            unknown.append(f"the broker {broker.host} is a name, looked up when the service runs")
        else:
            allow.add(word)
    lines = [f"# the network is on for: {'; '.join(uses)}",
             "PrivateNetwork=no",
             "RestrictAddressFamilies=",  # an empty assignment resets the unit's AF_UNIX-only list
             "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]
    if unknown:
        lines.append(f"# no IPAddressAllow=: {'; '.join(unknown)}")
    else:
        lines += ["IPAddressDeny=any", f"IPAddressAllow={' '.join(sorted(allow))}"]
    return HEADER + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the drop-in for the config named on the command line; exit 1 if it does not load."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--none"]:
        sys.stdout.write(dropin_text(None))
        return 0
    if len(args) != 1:
        print("usage: python -m firmware_host.storage.sandbox CONFIG | --none", file=sys.stderr)
        return 2
    try:
        cfg = load_config(args[0])
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write(dropin_text(cfg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
