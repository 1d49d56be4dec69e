// Curator's service discovery, run for real (curator-x-discovery 5.4.0 from Debian, test/support/systems): what
// ZooScope decodes from the instance nodes equals what Curator's own discovery API reports for them.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { decodeNode, decodedJson } from '../../src/zk/decoders';
import { ZkSession } from '../../src/zk/session/session';
import { DiscoveredInstance, registerInstances } from '../support/systems/discovery';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

describe('Curator service discovery, decoded', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let driver: ChildProcess;
  let reported: DiscoveredInstance[];

  before(async () => {
    zk = await startStandalone();
    ({ instances: reported, process: driver } = await registerInstances(zk.connectString, '/services', 'orders', 3));
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    // Closing stdin ends the driver (its registrations go with its session); wait for it, so nothing outlives the file.
    const exited = driver && driver.exitCode === null ? once(driver, 'exit') : undefined;
    driver?.stdin?.end();
    await exited;
    session?.close();
    await zk?.stop();
  });

  test('every instance node decodes to what the discovery API returns', async () => {
    assert.equal(reported.length, 3);
    const ids = (await session.getChildren('/services/orders')).children.sort();
    assert.deepEqual(ids, reported.map((r) => r.id).sort());
    for (const instance of reported) {
      const path = `/services/orders/${instance.id}`;
      const { data } = await session.getData(path);
      const decoded = decodeNode(path, data);
      assert.ok(decoded && !decoded.raw, `${path} not decoded`);
      assert.equal(decoded.system, 'curator');
      assert.equal(decoded.summary, `orders · ${instance.address}:${instance.port}`);
      const fields = decodedJson(decoded).fields;
      assert.equal(fields.id, instance.id);
      assert.equal(fields.address, instance.address);
      assert.equal(fields.port, String(instance.port));
      assert.equal(fields.serviceType, instance.serviceType);
      assert.match(String(fields.registrationTimeUTC), new RegExp(`^${instance.registrationTimeUTC} `));
      assert.equal(fields.uriSpec, '{scheme}://{address}:{port}');
    }
  });

  test('the service folder and base path are not taken for instances', async () => {
    for (const path of ['/services', '/services/orders']) {
      const { data } = await session.getData(path);
      assert.equal(decodeNode(path, data), undefined);
    }
  });
});
