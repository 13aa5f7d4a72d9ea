# pyftpdlib (Debian's python3-pyftpdlib, with python3-openssl for TLS) as a vendor's FTP
# server for the tests: one user, one folder, a loopback port; started by
# tests/support/system-servers.ts with Debian's /usr/bin/python3.
#
#   pyftpd-server.py --port N --root DIR --user U --password P
#                    [--cert PEM --key PEM]   explicit FTPS, required for logins and data
#                    [--listing unix|mlsd|dos] what LIST/MLSD answer (default: mlsd)
#                    [--disk-full]             STOR answers "552 disk full" after the 150
import argparse
import logging
import os
import time

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.filesystems import AbstractedFS
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


class DosListingFS(AbstractedFS):
    """Answers LIST as IIS and other Windows servers do ("01-02-24  10:30AM  <DIR>  name")."""

    def format_list(self, basedir, listing, ignore_err=True):
        for name in listing:
            path = os.path.join(basedir, name)
            try:
                st = self.lstat(path)
            except OSError:
                if ignore_err:
                    continue
                raise
            stamp = time.strftime("%m-%d-%y  %I:%M%p", time.gmtime(st.st_mtime))
            size = "<DIR>         " if self.isdir(path) else f"{st.st_size:>14}"
            yield f"{stamp}       {size} {name}\r\n".encode("utf8", self.cmd_channel.unicode_errors)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--listing", choices=["unix", "mlsd", "dos"], default="mlsd")
    parser.add_argument("--disk-full", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)

    authorizer = DummyAuthorizer()
    authorizer.add_user(args.user, args.password, args.root, perm="elradfmwMT")

    if args.cert:
        from pyftpdlib.handlers import TLS_FTPHandler

        base = TLS_FTPHandler
    else:
        base = FTPHandler

    class Handler(base):
        pass

    Handler.authorizer = authorizer
    Handler.passive_ports = None
    Handler.masquerade_address = None
    Handler.banner = "pyftpdlib ready."
    if args.cert:
        Handler.certfile = args.cert
        Handler.keyfile = args.key
        Handler.tls_control_required = True
        Handler.tls_data_required = True
    if args.listing != "mlsd":
        # Without MLST in FEAT (and MLSD refused) clients fall back to LIST.
        Handler.proto_cmds = {name: spec for name, spec in base.proto_cmds.items() if name not in ("MLSD", "MLST")}
    if args.listing == "dos":
        Handler.abstracted_fs = DosListingFS
    if args.disk_full:

        def ftp_STOR(self, file, mode="w"):
            # What a full disk answers: the transfer is refused once the data connection is open.
            self.respond("552 Requested file action aborted: no space left on device (disk full).")

        Handler.ftp_STOR = ftp_STOR

    server = FTPServer(("127.0.0.1", args.port), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
