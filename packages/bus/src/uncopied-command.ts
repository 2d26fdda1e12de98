import type { Writable } from 'node:stream';
import { Command, type Redis } from 'ioredis';

/**
 * A Redis command whose Buffer arguments reach the socket as they are. ioredis's own Command joins all of a
 * command's arguments into one new Buffer before writing it: for an XADD of captured 100 KiB bodies, a
 * 100 KiB copy per exchange, which the gateway paid in CPU and in off-heap memory, whose swings start V8's
 * major collections (BENCHMARKS.md, "The major collections at 100 KiB"). This one writes the RESP framing
 * (strings) and each Buffer argument into the socket in turn and gives ioredis only the final CRLF to write;
 * a caller that corks the socket (the publisher does) sends it all in one writev.
 *
 * ioredis passes the socket it writes to (also the new one after a reconnect) to `toWritable`. Only for a
 * command sent on its own (`send`): in a pipeline or MULTI, ioredis collects the commands' writables and
 * writes them later, and these direct writes would overtake them — hence the private constructor. The
 * client's `keyPrefix` is not applied.
 */
export class UncopiedCommand extends Command {
  private constructor(name: string, args: (string | Buffer)[]) {
    super(name, args, { replyEncoding: 'utf8' });
  }

  /** Sends `name args…` on `redis`; the reply as a string (as `redis[name](…args)` gives it). */
  static send(redis: Redis, name: string, args: (string | Buffer)[]): Promise<unknown> {
    const command = new UncopiedCommand(name, args);
    redis.sendCommand(command);
    return command.promise;
  }

  override toWritable(socket: Writable): string {
    const args = this.args as (string | Buffer)[];
    let pending = `*${args.length + 1}\r\n$${Buffer.byteLength(this.name)}\r\n${this.name}\r\n`;
    for (const arg of args) {
      if (typeof arg === 'string') {
        pending += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
        continue;
      }
      socket.write(`${pending}$${arg.length}\r\n`);
      socket.write(arg);
      pending = '\r\n';
    }
    return pending;
  }
}
