import { describe, expect, it } from 'vitest';
import { MAX_ITEMS, MAX_TEMPLATE_SOURCE, MAX_TEXT, prepare, TemplateEngine } from './templates.js';

const engine = new TemplateEngine();
const render = (source: string, variables: Record<string, unknown> = {}) => engine.render(source, variables);

describe('Home Assistant templates', () => {
  it.each([
    // [template, variables, printed]
    ['{{ value_json.state }}', { value_json: { state: 'ON' } }, 'ON'],
    [
      "{{ value_json['DS18B20-2']['Temperature'] }}",
      { value_json: { 'DS18B20-2': { Temperature: 21.8 } } },
      '21.8',
    ],
    ['{{value_json.params.events.0.id}}', { value_json: { params: { events: [{ id: 3 }] } } }, '3'],
    ['{{ value | float | round(1) }}', { value: '20.54' }, '20.5'],
    ['{{ value | round(0) }}', { value: '39.6' }, '40'],
    ['{{ value | int }}', { value: '22.7' }, '22'],
    ["{{ {0:'off', 1:'low', 2:'medium', 3:'high'}[value] | default('') }}", { value: 2 }, 'medium'],
    [
      "{{ {'off':0, 'low':1}[value_json.fan_mode] | default('None') }}",
      { value_json: { fan_mode: 'x' } },
      'None',
    ],
    [
      "{% set values = {None:None,'idle':'idle','heat':'heating'} %}{{ values[value_json.running_state] }}",
      { value_json: { running_state: 'heat' } },
      'heating',
    ],
    [
      "{% set values = {None:None,'idle':'idle'} %}{{ values[value_json.running_state] }}",
      { value_json: { running_state: null } },
      'None',
    ],
    ['{{ value_json.value }}', { value_json: { value: true } }, 'True'],
    ['{{ value_json.batt | is_defined }}', { value_json: { batt: 90 } }, '90'],
    ["{{'online' if value_json['RFM200'] is defined else 'offline'}}", { value_json: {} }, 'offline'],
    [
      '{%if value_json.mqtt.connected%}online{%else%}offline{%endif%}',
      { value_json: { mqtt: { connected: true } } },
      'online',
    ],
    [
      '{%if "overtemp" in value_json.get("errors",[])%}ON{%else%}OFF{%endif%}',
      { value_json: { errors: ['overtemp'] } },
      'ON',
    ],
    ['{{value_json.brightness|float|multiply(2.55)|round}}', { value_json: { brightness: 50 } }, '128'],
    ['{{ value_json.rgb | join(",") }}', { value_json: { rgb: [1, 2, 3] } }, '1,2,3'],
    ['{{ value_json.log_level | lower }}', { value_json: { log_level: 'INFO' } }, 'info'],
    ['{{ value_json.permit_join | lower }}', { value_json: { permit_join: false } }, 'false'],
    ['{{ value_json.data | to_json }}', { value_json: { data: { a: 1 } } }, '{"a":1}'],
    ['{{ {"id": 1, "value": value} | tojson }}', { value: 5 }, '{"id": 1, "value": 5}'],
    ['{{ (float(value|float) * 3.6) | round(2) }}', { value: '2.5' }, '9.0'],
    // 49.5 rounds half to even: 50, then + 1.
    ['{{ ((float(value) * 99)|round(0)) + 1 }}', { value: '0.5' }, '51'],
    ['{{ max(transition|int, 1) }}', { transition: 0 }, '1'],
    ['{{ value | unpack("b") }}', { value: '\u00ff' }, '-1'],
    ['{ "position": {{ position }} }', { position: 40 }, '{ "position": 40 }'],
    [
      "{% if volume_level is defined %}x{% else %}{{ tone | default('emergency') }}{% endif %}",
      {},
      'emergency',
    ],
    ['  padded  ', {}, 'padded'],
    ['{{ (as_timestamp(now()) - 10) > 0 }}', {}, 'True'],
    ["{{ iif(value == 'ON', 'on', 'off') }}", { value: 'ON' }, 'on'],
  ])('%s → %s', (source, variables, printed) => {
    expect(render(source, variables)).toEqual({ ok: true, text: printed });
  });

  it.each([
    // [template, variables, what the error says]
    ['{{ value | float }}', { value: 'abc' }, 'float got invalid input'],
    ['{{ value_json.x | is_defined }}', { value_json: {} }, 'undefined'],
    ['{{ value | regex_findall("a") }}', { value: 'a' }, 'regex_findall'],
    ['{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}', {}, 'macros are not supported'],
    ['{{ value', {}, 'template error'],
    ['{% for i in range(100000) %}{% endfor %}', {}, 'range too large'],
    [
      "{% set s = 'x' %}{% for i in range(9000) %}{% for j in range(9000) %}{% endfor %}{% endfor %}",
      {},
      'too',
    ],
    ["{{ ('x' * 1) }}", {}, 'Unknown operator'],
    ["{% set s = 'abcdefgh' %}{{ s.replace('', s * 1) }}", {}, ''],
  ])('fails %s with an error naming why', (source, variables, reason) => {
    const result = render(source, variables);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(reason);
  });

  it('refuses a template source longer than 16 KB', () => {
    expect(render('x'.repeat(MAX_TEMPLATE_SOURCE + 1))).toEqual({
      ok: false,
      error: `template longer than ${MAX_TEMPLATE_SOURCE} characters`,
    });
  });

  it('stops a template that loops before its time cap is long past, and refuses it after it timed out three times', () => {
    const looping = "{% for i in range(9000) %}{% for j in range(9000) %}{{ '' }}{% endfor %}{% endfor %}";
    const quick = new TemplateEngine({ timeoutMs: 20 });
    // Counts the renders that got as far as reading the message's values.
    let reads = 0;
    const variables = {
      get value() {
        reads++;
        return 'on';
      },
    };
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      expect(quick.render(looping, variables).ok).toBe(false);
      expect(performance.now() - started).toBeLessThan(500);
    }
    expect(reads).toBe(3);
    expect(quick.render(looping, variables)).toEqual({
      ok: false,
      error: 'template disabled: it took too long repeatedly',
    });
    // Refused before it ran: the values were not even read.
    expect(reads).toBe(3);
  });

  it('prints a path-and-filters template, run without the interpreter, as the interpreter prints it (errors and bounds too)', () => {
    const interpreted = new TemplateEngine({ direct: false });
    const templates = [
      '{{ value }}',
      ' {{ value_json.a }} and {{ value_json.b }} ',
      "{{ value_json['a']['b'] }}",
      '{{ value_json.a.0 }}',
      '{{ value_json.a.-1 }}',
      '{{ value_json.missing }}',
      "{{ value_json['missing'] }}",
      '{{ value_json.items }}',
      '{{ value_json.a.b.c }}',
      '{{ value_json.a | float }}',
      '{{ value_json.a | float(0) }}',
      '{{ value_json.a | round(1) }}',
      '{{ value_json.a | int }}',
      '{{ value_json.a | is_defined }}',
      '{{ value_json.a | multiply(2) | round(2, "floor") }}',
      '{{ value_json.a | string | upper }}',
      '{{ value_json.a | tojson }}',
      '{{ nothing.a }}',
    ];
    const messages: unknown[] = [
      { a: 21.456, b: 'ON' },
      { a: '12.5' },
      { a: 'abc' },
      { a: true },
      { a: null },
      { a: [1, 'b', null, { c: 2 }] },
      { a: { b: { c: 'deep' } } },
      { a: 1e21 },
      { items: 3, a: -0.5 },
      { a: Array.from({ length: MAX_ITEMS + 1 }, (_, i) => i) },
      { a: 'x'.repeat(MAX_TEXT / 2 + 1), b: 'x'.repeat(MAX_TEXT / 2 + 1) },
      'not json',
    ];
    for (const message of messages)
      for (const source of templates) {
        const variables =
          typeof message === 'string'
            ? { value: message }
            : { value: JSON.stringify(message), value_json: prepare(message) };
        expect([source, engine.render(source, variables)]).toEqual([
          source,
          interpreted.render(source, variables),
        ]);
      }
  });

  it('bounds what a template may build: a huge join or replace fails before it allocates', () => {
    const big = 'x'.repeat(100_000);
    expect(render("{{ value.replace('x', value) }}", { value: big }).ok).toBe(false);
    expect(render('{{ [value, value, value, value, value, value] | join(value) }}', { value: big }).ok).toBe(
      false,
    );
  });
});
