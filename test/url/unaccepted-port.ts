/**
 * A loopback port whose connections never complete, for the connect time
 * limit: a socket that listens with a backlog of 0 and never accepts. The
 * kernel completes one handshake into the queue; once that is taken by a
 * filler connection, every further SYN is dropped and a client's connect
 * waits. Node's servers always accept, so the socket is made through libc
 * (bun:ffi), as the product reaches flock (src/native/file-lock.ts). Linux only.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { connect, type Socket } from "node:net";

const AF_INET = 2;
const SOCK_STREAM = 1;

export interface UnacceptedPort {
  port: number;
  close(): void;
}

export async function unacceptedPort(): Promise<UnacceptedPort> {
  const libc = dlopen("libc.so.6", {
    socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    bind: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    listen: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    getsockname: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
  });
  const fd = libc.symbols.socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw new Error("socket() failed");
  // struct sockaddr_in for 127.0.0.1, port 0 (the kernel picks one).
  const address = new Uint8Array(16);
  new DataView(address.buffer).setUint16(0, AF_INET, true);
  address.set([127, 0, 0, 1], 4);
  const length = new Uint32Array([16]);
  if (libc.symbols.bind(fd, ptr(address), 16) !== 0 || libc.symbols.listen(fd, 0) !== 0 || libc.symbols.getsockname(fd, ptr(address), ptr(length)) !== 0) {
    libc.symbols.close(fd);
    throw new Error("bind/listen failed");
  }
  const port = new DataView(address.buffer).getUint16(2, false);
  // Fillers take the queue's places; they connect at once because the kernel completes their handshakes.
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => {
      socket.once("connect", () => resolve());
      socket.once("error", () => resolve());
      setTimeout(resolve, 200);
    });
    fillers.push(socket);
  }
  return {
    port,
    close() {
      for (const s of fillers) s.destroy();
      libc.symbols.close(fd);
      libc.close();
    },
  };
}
