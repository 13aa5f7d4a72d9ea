// A loopback SFTP server: local mode's demo vendor and the tests use it; production does not.
export * from "./sftp-server";
