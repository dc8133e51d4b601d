import { expect } from 'chai';
import { acceptedRequestId, makeRequestId, traceIdOf } from '../../../core/kernel/call-span.js';

describe('request ids: what a caller sent, checked, or one made', () => {
  it("takes a gateway's id as it came: UUIDs, nginx's hex, AWS trace ids", () => {
    for (const id of ['6ba7b810-9dad-11d1-80b4-00c04fd430c8', '8b1f3c0e9d2a4b7c', 'Root=1-67891233-abcdef012345678912345678', 'req_01HX:7/+=@']) {
      expect(acceptedRequestId(id), id).to.equal(id);
    }
  });

  it('ignores an id that could forge a header or a log line, is empty, or runs long', () => {
    for (const id of ['abc\r\nX-Injected: 1', 'two words', '', 'x'.repeat(129), 'naïve', '<script>', 42, undefined]) {
      expect(acceptedRequestId(id), String(id)).to.equal(undefined);
    }
  });

  it('makes ids of 32 hex digits, each new', () => {
    const ids = new Set(Array.from({ length: 100 }, makeRequestId));
    expect(ids.size).to.equal(100);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{32}$/);
  });

  it('reads the trace id of a W3C traceparent', () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).to.equal('4bf92f3577b34da6a3ce929d0e0e4736');
    // A later version may add fields; its first four are read the same.
    expect(traceIdOf('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next')).to.equal('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('refuses what the W3C recommendation calls invalid', () => {
    for (const value of [
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', // version ff
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01', // all-zero trace id
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', // all-zero parent id
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', // upper case
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra', // version 00 has four fields
      '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01', // short
      'not a traceparent',
    ]) {
      expect(traceIdOf(value), value).to.equal(undefined);
    }
  });
});
