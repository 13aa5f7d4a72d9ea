// X12's public face (issue 19): reading (whole or streamed), writing, the
// interchange envelope, delimiters and the faults a file can have. The app
// imports X12 from "@edi/x12" only.
export * from "./reader";
export * from "./stream";
export * from "./writer";
export * from "./envelope";
export * from "./isa";
export * from "./delimiters";
export * from "./faults";
export * from "./segments";
