// Debian's own OpenSSH server and vsftpd (and Pure-FTPd and pyftpdlib: startFtpServers below),
// started privately on loopback by the tests that need them: the transport against the servers vendors and AS400s really run, not only
// against the in-process ones. Each start makes a local user of its own (a random name,
// removed at stop), a home folder under a temporary folder, a host key or certificate,
// a configuration file and a free port; nothing system-wide is reconfigured.
//
// Needs root (to make the user, and for the servers to log it in) and the programs:
// `apt-get install openssh-server vsftpd openssl` (.ci/run installs them when missing).
// `systemServersUnavailable()` says why they cannot run here, for the suite to skip.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Debian's vsftpd, or where VSFTPD says (a machine with Pure-FTPd's package, which conflicts with it). */
const VSFTPD = process.env.VSFTPD || "/usr/sbin/vsftpd";

const PROGRAMS = ["/usr/sbin/sshd", VSFTPD, "/usr/bin/ssh-keygen", "/usr/bin/openssl", "/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/chpasswd"];

/** Why the system servers cannot run on this machine, or null when they can. */
export function systemServersUnavailable(): string | null {
  const missing = PROGRAMS.filter((program) => !existsSync(program));
  if (missing.length) return `missing ${missing.join(", ")} (apt-get install openssh-server vsftpd openssl)`;
  if (process.getuid?.() !== 0) return "not running as root (needed to create the test user the servers log in)";
  return null;
}

export interface SystemUser {
  name: string;
  password: string;
  uid: number;
  gid: number;
  /** The user's home: the FTP servers' root (chroot), and SFTP's login folder. */
  home: string;
  /** Gives the user what the test wrote as root under its home. */
  own(): void;
}

export interface SystemServer {
  host: "127.0.0.1";
  port: number;
  /** What the client sees as its home: "/" under vsftpd's chroot, the absolute home with sshd. */
  root: string;
  stop(): Promise<void>;
}

export type VsftpdVariant = "active-only" | "passive-only" | "ftps";

export interface SystemServers {
  user: SystemUser;
  sshd: SystemServer;
  vsftpd: Record<VsftpdVariant, SystemServer>;
  /** The FTPS server's self-signed certificate (PEM). */
  certificatePem: string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startSystemServers(): Promise<SystemServers> {
  const unavailable = systemServersUnavailable();
  if (unavailable) throw new Error(`The system SFTP/FTP servers cannot run: ${unavailable}`);
  return withPrivateUser("edi-system-servers-", async (base, user, certificate, started) => {
    const sshd = await startSshd(base, user);
    started.push(sshd);
    const vsftpd = {} as Record<VsftpdVariant, SystemServer>;
    for (const variant of ["active-only", "passive-only", "ftps"] as const) {
      vsftpd[variant] = await startVsftpd(base, user, variant, certificate);
      started.push(vsftpd[variant]);
    }
    return { sshd, vsftpd };
  });
}

/**
 * A folder, a throwaway local user and a self-signed certificate, and the servers `start` starts
 * for them (pushed on `started`): all stopped and removed by stop(), or at once when a start fails.
 */
async function withPrivateUser<T extends object>(
  prefix: string,
  start: (base: string, user: SystemUser, certificate: ReturnType<typeof makeCertificate>, started: SystemServer[]) => Promise<T>,
): Promise<T & { user: SystemUser; certificatePem: string; stop(): Promise<void> }> {
  const base = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(base, 0o755); // the user must reach its home below
  const started: SystemServer[] = [];
  let user: SystemUser | null = null;
  try {
    user = createUser(base);
    const certificate = makeCertificate(base);
    const servers = await start(base, user, certificate, started);
    const created = user;
    return {
      ...servers,
      user: created,
      certificatePem: certificate.pem,
      stop: async () => {
        await Promise.all(started.map((server) => server.stop()));
        removeUser(created.name);
        rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.stop().catch(() => undefined)));
    if (user) removeUser(user.name);
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

function createUser(base: string): SystemUser {
  const name = `edi-test-${randomBytes(3).toString("hex")}`;
  const password = `Pw-${randomBytes(12).toString("base64url")}`;
  const home = path.join(base, "home");
  // A shell listed in /etc/shells: vsftpd's PAM service requires one (pam_shells).
  execFileSync("/usr/sbin/useradd", ["--home-dir", home, "--create-home", "--shell", "/bin/sh", "--user-group", name], { stdio: "pipe" });
  execFileSync("/usr/sbin/chpasswd", { input: `${name}:${password}\n`, stdio: ["pipe", "pipe", "pipe"] });
  for (const entry of readdirSync(home)) rmSync(path.join(home, entry), { recursive: true, force: true }); // skeleton files
  const uid = Number(execFileSync("id", ["-u", name]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", name]).toString().trim());
  chmodSync(home, 0o755);
  const own = () => chownTree(home, uid, gid);
  return { name, password, uid, gid, home, own };
}

function chownTree(target: string, uid: number, gid: number): void {
  chownSync(target, uid, gid);
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    const child = path.join(target, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else chownSync(child, uid, gid);
  }
}

function removeUser(name: string): void {
  try {
    execFileSync("/usr/sbin/userdel", ["--force", name], { stdio: "pipe" });
  } catch {
    // Already gone, or a session still open: nothing a test can do about it.
  }
}

function makeCertificate(base: string): { certFile: string; keyFile: string; pem: string } {
  const dir = path.join(base, "tls");
  mkdirSync(dir, { mode: 0o700 });
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  execFileSync(
    "/usr/bin/openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2", "-subj", "/CN=edi-test.invalid", "-keyout", keyFile, "-out", certFile],
    { stdio: "pipe" },
  );
  return { certFile, keyFile, pem: execFileSync("cat", [certFile]).toString() };
}

async function startSshd(base: string, user: SystemUser): Promise<SystemServer> {
  const dir = path.join(base, "sshd");
  mkdirSync(dir, { mode: 0o700 });
  const hostKey = path.join(dir, "ssh_host_ed25519_key");
  execFileSync("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey], { stdio: "pipe" });
  // sshd refuses to start without its privilege separation folder (made by the service otherwise).
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = path.join(dir, "sshd_config");
  writeFileSync(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      "PidFile none",
      // Passwords checked against /etc/shadow by sshd itself: PAM's session modules
      // (pam_loginuid) fail in containers.
      "UsePAM no",
      "PasswordAuthentication yes",
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication no",
      "PermitRootLogin no",
      `AllowUsers ${user.name}`,
      "StrictModes no",
      "Subsystem sftp internal-sftp",
      "ForceCommand internal-sftp",
      "AllowTcpForwarding no",
      "X11Forwarding no",
      "PrintMotd no",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  const stop = await launch("sshd", "/usr/sbin/sshd", ["-D", "-e", "-f", config], port, "SSH-");
  return { host: "127.0.0.1", port, root: user.home, stop };
}

async function startVsftpd(base: string, user: SystemUser, variant: VsftpdVariant, certificate: { certFile: string; keyFile: string }): Promise<SystemServer> {
  const dir = path.join(base, `vsftpd-${variant}`);
  mkdirSync(dir, { mode: 0o755 });
  // vsftpd's own empty, root-owned folder for its unprivileged processes.
  const empty = path.join(dir, "empty");
  mkdirSync(empty, { mode: 0o755 });
  const port = await freePort();
  const pasvMin = 20_000 + Math.floor(Math.random() * 120) * 100;
  const modes =
    variant === "active-only"
      ? ["pasv_enable=NO", "port_enable=YES"]
      : variant === "passive-only"
        ? ["pasv_enable=YES", "port_enable=NO"]
        : ["pasv_enable=YES", "port_enable=YES"];
  const tls =
    variant === "ftps"
      ? [
          "ssl_enable=YES",
          `rsa_cert_file=${certificate.certFile}`,
          `rsa_private_key_file=${certificate.keyFile}`,
          "force_local_logins_ssl=YES",
          "force_local_data_ssl=YES",
          // vsftpd's default, kept: data connections must resume the control connection's session.
          "require_ssl_reuse=YES",
          "ssl_ciphers=HIGH",
        ]
      : ["ssl_enable=NO"];
  const config = path.join(dir, "vsftpd.conf");
  writeFileSync(
    config,
    [
      "listen=YES",
      "listen_ipv6=NO",
      "listen_address=127.0.0.1",
      `listen_port=${port}`,
      "background=NO",
      "anonymous_enable=NO",
      "local_enable=YES",
      "write_enable=YES",
      // The server's most permissive defaults: what a file ends up with is the client's doing.
      "local_umask=000",
      "file_open_mode=0666",
      "chmod_enable=YES",
      "chroot_local_user=YES",
      "allow_writeable_chroot=YES",
      ...modes,
      `pasv_min_port=${pasvMin}`,
      `pasv_max_port=${pasvMin + 99}`,
      "pasv_address=127.0.0.1",
      "port_promiscuous=NO",
      "connect_from_port_20=NO",
      "seccomp_sandbox=NO",
      `secure_chroot_dir=${empty}`,
      "pam_service_name=vsftpd",
      "userlist_enable=NO",
      "xferlog_enable=NO",
      "syslog_enable=NO",
      "use_localtime=NO",
      ...tls,
      "",
    ].join("\n"),
  );
  chmodSync(config, 0o600);
  const stop = await launch(`vsftpd ${variant}`, VSFTPD, [config], port, "220");
  return { host: "127.0.0.1", port, root: "/", stop };
}

/**
 * Pure-FTPd and pyftpdlib, the FTP servers the review found faults with: Debian conflicts
 * Pure-FTPd with vsftpd (both provide ftp-server), so CI unpacks Pure-FTPd's package into
 * .ci/pure-ftpd when vsftpd is installed and names its program in PURE_FTPD (.ci/run).
 */
const PURE_FTPD = process.env.PURE_FTPD || "/usr/sbin/pure-ftpd";
/** Debian's own Python, with python3-pyftpdlib and python3-openssl (not a python3 earlier on PATH). */
const DEBIAN_PYTHON = "/usr/bin/python3";
const PYFTPD_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "pyftpd-server.py");

/** Why Pure-FTPd and pyftpdlib cannot run here, or null when they can. */
export function ftpServersUnavailable(): string | null {
  const missing = [PURE_FTPD, DEBIAN_PYTHON, "/usr/bin/openssl", "/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/chpasswd"].filter(
    (program) => !existsSync(program),
  );
  if (missing.length) return `missing ${missing.join(", ")} (apt-get install pure-ftpd python3-pyftpdlib python3-openssl openssl)`;
  const modules = spawnSync(DEBIAN_PYTHON, ["-c", "import pyftpdlib, OpenSSL"], { stdio: "pipe" });
  if (modules.status !== 0) return "Debian's python3 lacks pyftpdlib or OpenSSL (apt-get install python3-pyftpdlib python3-openssl)";
  if (process.getuid?.() !== 0) return "not running as root (needed to create the test user Pure-FTPd logs in)";
  return null;
}

/**
 * pyftpdlib's variants: `tls` requires explicit FTPS (logins and data) and lists with MLSD;
 * `unix` and `dos` list in clear with LIST only (Unix `ls -l` lines, or Windows/IIS lines);
 * `disk-full` answers every STOR "552 … disk full".
 */
export type PyftpdlibVariant = "tls" | "unix" | "dos" | "disk-full";

export interface FtpServers {
  user: SystemUser;
  /** Pure-FTPd with TLS required for logins and data (`--tls=3`), chrooted to the user's home. */
  pureFtpd: SystemServer;
  /** pyftpdlib serving the user's home, as the same user name and password. */
  pyftpdlib: Record<PyftpdlibVariant, SystemServer>;
  certificatePem: string;
  stop(): Promise<void>;
}

export async function startFtpServers(): Promise<FtpServers> {
  const unavailable = ftpServersUnavailable();
  if (unavailable) throw new Error(`Pure-FTPd and pyftpdlib cannot run: ${unavailable}`);
  return withPrivateUser("edi-ftp-servers-", async (_base, user, certificate, started) => {
    const pureFtpd = await startPureFtpd(user, certificate);
    started.push(pureFtpd);
    const pyftpdlib = {} as Record<PyftpdlibVariant, SystemServer>;
    for (const variant of ["tls", "unix", "dos", "disk-full"] as const) {
      pyftpdlib[variant] = await startPyftpdlib(user, variant, certificate);
      started.push(pyftpdlib[variant]);
    }
    return { pureFtpd, pyftpdlib };
  });
}

async function startPureFtpd(user: SystemUser, certificate: { certFile: string; keyFile: string }): Promise<SystemServer> {
  const port = await freePort();
  const pasvMin = 20_000 + Math.floor(Math.random() * 120) * 100;
  const args = [
    `--bind=127.0.0.1,${port}`,
    "--login=unix",
    "--chrooteveryone",
    "--noanonymous",
    "--dontresolve",
    "--syslogfacility=none",
    `--passiveportrange=${pasvMin}:${pasvMin + 99}`,
    // 3: TLS required for logins and for data; a login in clear is answered "421 … use TLS".
    "--tls=3",
    `--certfile=${certificate.certFile},${certificate.keyFile}`,
    "--minuid=1",
  ];
  const stop = await launch("pure-ftpd", PURE_FTPD, args, port, "220");
  return { host: "127.0.0.1", port, root: "/", stop };
}

async function startPyftpdlib(user: SystemUser, variant: PyftpdlibVariant, certificate: { certFile: string; keyFile: string }): Promise<SystemServer> {
  const port = await freePort();
  const args = [PYFTPD_SCRIPT, "--port", String(port), "--root", user.home, "--user", user.name, "--password", user.password];
  if (variant === "tls") args.push("--cert", certificate.certFile, "--key", certificate.keyFile, "--listing", "mlsd");
  else args.push("--listing", variant === "dos" ? "dos" : "unix");
  if (variant === "disk-full") args.push("--disk-full");
  const stop = await launch(`pyftpdlib ${variant}`, DEBIAN_PYTHON, args, port, "220");
  return { host: "127.0.0.1", port, root: "/", stop };
}

/** Starts a server in the foreground and waits until its port greets; returns how to stop it. */
async function launch(name: string, program: string, args: string[], port: number, greeting: string): Promise<() => Promise<void>> {
  const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    running.delete(child);
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} stopped at start: ${stderr.trim() || `exit ${child.exitCode}`}`);
    if (await greets(port, greeting)) return stop;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer on port ${port}: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function greets(port: number, greeting: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let text = "";
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.startsWith(greeting)) done(true);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
