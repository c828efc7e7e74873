import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseEngine } from '../../src/engines/clickhouse.js';

// A loopback HTTP server that answers `SELECT 1` at once and never answers anything else, as a
// ClickHouse server answers a long level query only when it has counted every row.
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (body.startsWith('SELECT 1 ')) res.end('{"meta":[{"name":"1","type":"UInt8"}],"data":[[1]]}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});
afterEach(() => {
  delete process.env.GROVE_CLICKHOUSE_TIMEOUT;
});

describe('ClickHouse requests', () => {
  it('a server that does not answer in GROVE_CLICKHOUSE_TIMEOUT seconds: a timeout, not "cannot connect"', async () => {
    process.env.GROVE_CLICKHOUSE_TIMEOUT = '0.3';
    const engine = await ClickHouseEngine.open(`clickhouse://127.0.0.1:${port}/default`);
    const failed = await engine.query('SELECT count() FROM t').catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/no answer within 0\.3 s \(GROVE_CLICKHOUSE_TIMEOUT/);
    expect((failed as Error).message).not.toMatch(/cannot connect/);
  });

  it('a closed port: cannot connect', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const free = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    await expect(ClickHouseEngine.open(`clickhouse://127.0.0.1:${free}/default`)).rejects.toThrow(
      /cannot connect \(ECONNREFUSED\)/,
    );
  });

  it('GROVE_CLICKHOUSE_TIMEOUT that is not a positive number is refused, naming the variable', async () => {
    process.env.GROVE_CLICKHOUSE_TIMEOUT = 'soon';
    await expect(ClickHouseEngine.open(`clickhouse://127.0.0.1:${port}/default`)).rejects.toThrow(
      /GROVE_CLICKHOUSE_TIMEOUT must be a number of seconds above 0, not 'soon'/,
    );
  });
});
