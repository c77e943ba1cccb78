import { describe, expect, it } from 'vitest';
import { chooseProxy, useProxy } from '../../../src/kube/proxy.js';

// client-go's proxy rules (clientcmd's proxy-url validation; Go's httpproxy.FromEnvironment and useProxy with
// client-go's CIDR NO_PROXY), as the lab's kubectl showed them: test/e2e/proxy.test.ts checks both agree live.

const cluster = { name: 'prod' };

describe('proxy-url', () => {
  it('http, https and socks5 are taken as they are, over any environment variable', () => {
    for (const url of ['http://10.0.0.1:3128', 'https://proxy.corp:443', 'socks5://u:p@10.0.0.1:1080']) {
      const choice = chooseProxy('https://api.corp:6443', { ...cluster, proxyUrl: url }, { HTTPS_PROXY: 'http://x:1' });
      expect(choice).toMatchObject({ url: new URL(url).href, origin: 'proxy-url of cluster "prod"' });
    }
  });

  it("another scheme is refused with clientcmd's validation message", () => {
    expect(() => chooseProxy('https://api.corp', { ...cluster, proxyUrl: 'ftp://p:21' }, {})).toThrow(
      'invalid \'proxy-url\' "ftp://p:21" for cluster "prod": unsupported scheme "ftp", must be http, https, or socks5',
    );
  });
});

describe('the environment, when no proxy-url is set', () => {
  const https = 'https://api.corp:6443';

  it('HTTPS_PROXY for an https server, HTTP_PROXY for an http one, upper case first', () => {
    expect(chooseProxy(https, cluster, { HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:1' })).toMatchObject({
      url: 'http://a:1/',
      origin: 'HTTPS_PROXY',
    });
    expect(chooseProxy(https, cluster, { https_proxy: 'http://b:1' })?.origin).toBe('https_proxy');
    expect(chooseProxy(https, cluster, { HTTP_PROXY: 'http://a:1' })).toBeUndefined();
    expect(chooseProxy('http://api.corp:8080', cluster, { HTTP_PROXY: 'http://a:1' })?.origin).toBe('HTTP_PROXY');
  });

  it('a value without a scheme is http://; HTTP_PROXY is ignored in a CGI environment', () => {
    expect(chooseProxy(https, cluster, { HTTPS_PROXY: 'proxy.corp:3128' })?.url).toBe('http://proxy.corp:3128/');
    expect(chooseProxy('http://api.corp', cluster, { HTTP_PROXY: 'p:1', REQUEST_METHOD: 'GET' })).toBeUndefined();
  });

  it('localhost and loopback addresses are never proxied', () => {
    for (const server of [
      'https://localhost:6443',
      'https://127.0.0.1:6443',
      'https://127.9.9.9',
      'https://[::1]:6443',
    ]) {
      expect(chooseProxy(server, cluster, { HTTPS_PROXY: 'http://p:1' }), server).toBeUndefined();
    }
  });
});

describe("NO_PROXY, as Go's httpproxy and client-go's CIDR proxier match it", () => {
  const cases: Array<[host: string, port: string, noProxy: string, proxied: boolean]> = [
    ['api.corp', '6443', '*', false],
    ['api.corp', '6443', 'corp', false],
    ['api.corp', '6443', 'api.corp', false],
    ['api.corp', '6443', 'API.CORP ', false],
    ['api.corp', '6443', '.corp', false],
    ['corp', '6443', '.corp', true],
    ['corp', '6443', 'corp', false],
    ['api.corp', '6443', '*.corp', false],
    ['notcorp', '6443', 'corp', true],
    ['api.corp', '6443', 'api.corp:6443', false],
    ['api.corp', '6443', 'api.corp:443', true],
    ['10.1.2.3', '6443', '10.1.2.3', false],
    ['10.1.2.3', '6443', '10.0.0.0/8', false],
    ['10.1.2.3', '6443', '192.168.0.0/16,10.1.2.4', true],
    ['10.1.2.3', '6443', '10.1.2.3:443', true],
    ['10.1.2.3', '6443', 'corp', true],
    ['fd00::1', '6443', 'fd00::/8', false],
    ['fd00::1', '6443', '[fd00::1]:6443', false],
    ['api.corp', '6443', '', true],
  ];
  it.each(cases)('%s:%s with NO_PROXY=%j → proxied %s', (host, port, noProxy, proxied) => {
    expect(useProxy(host, port, noProxy)).toBe(proxied);
  });

  it('applies to the environment only, never to proxy-url', () => {
    expect(
      chooseProxy('https://api.corp', cluster, { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.corp' }),
    ).toBeUndefined();
    expect(chooseProxy('https://api.corp', { ...cluster, proxyUrl: 'http://p:1' }, { NO_PROXY: '*' })).toEqual({
      url: 'http://p:1/',
      origin: 'proxy-url of cluster "prod"',
      protocol: 'http:',
    });
  });
});
