import { describe, expect, it } from 'vitest';
import { celDevice, compileSelector } from '../../../../src/plan/scheduling/dra/cel.js';
import { device } from './dra-fixtures.js';

/**
 * Device selectors in CEL as the DRA allocator evaluates them (dynamic-resource-allocation/cel,
 * compile_test.go): driver, attributes grouped by domain (a bare name is the driver's), capacities as
 * quantities, semver versions, an unknown domain an empty map, an unknown field an error.
 */
const gpu = celDevice(
  'gpu.example.com',
  device(
    'gpu-0',
    { model: 'a100', cores: 8, mig: true, driverVersion: { version: '1.2.3' }, 'numa.example.com/node': 1 },
    { memory: '80Gi' },
  ),
);

function evaluate(expression: string): boolean | string {
  const compiled = compileSelector(expression);
  if ('error' in compiled) return `compile: ${compiled.error}`;
  const result = compiled.selector(gpu);
  return result instanceof Error ? `runtime: ${result.message}` : result;
}

describe('CEL device selectors', () => {
  it.each([
    ['driver', 'device.driver == "gpu.example.com"', true],
    ['string attribute of the driver domain', 'device.attributes["gpu.example.com"].model == "a100"', true],
    ['int attribute', 'device.attributes["gpu.example.com"].cores >= 4', true],
    ['bool attribute', 'device.attributes["gpu.example.com"].mig', true],
    ['attribute of another domain', 'device.attributes["numa.example.com"].node == 1', true],
    ['quantity capacity compared', 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0', true],
    ['quantity isGreaterThan', 'device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("100Gi"))', false],
    ['quantities equal across units', 'quantity("1Gi") == quantity("1024Mi")', true],
    ['semver attribute', 'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.0"))', true],
    ['semver pre-release is lower', 'semver("1.2.3-rc.1").isLessThan(semver("1.2.3"))', true],
    ['cel.bind', 'cel.bind(g, device.attributes["gpu.example.com"], g.model == "a100" && g.cores == 8)', true],
    ['in on a domain map', '"model" in device.attributes["gpu.example.com"]', true],
    ['an unknown domain is an empty map', 'device.attributes["other.example.com"].size() == 0', true],
    ['string functions', 'device.attributes["gpu.example.com"].model.startsWith("a1")', true],
  ])('%s', (_name, expression, want) => {
    expect(evaluate(expression)).toBe(want);
  });

  it('an unknown field of a known domain is a runtime error, as in the allocator', () => {
    expect(evaluate('device.attributes["gpu.example.com"].nope == 1')).toMatch(/^runtime: No such key: nope/);
  });

  it('a result that is not a bool is an error', () => {
    expect(evaluate('device.attributes["gpu.example.com"].model')).toMatch(
      /^runtime: expression must evaluate to bool/,
    );
  });

  it('an expression the library cannot compile is reported, not guessed', () => {
    expect(evaluate('device.driver ==')).toMatch(/^compile: /);
  });
});
