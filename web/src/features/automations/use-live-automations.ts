import { automationTopics, devicehubTopic } from '@hearth/contracts';
import { useEffect, useRef } from 'react';
import { getAccessToken } from '../../shared/api/client.js';
import { loadClientConfig } from '../../shared/api/client-config.js';
import { streamUrl } from '../devices/stream/topics.js';

const RETRY_MS = 3000;

/**
 * docs/automations.md#live: changes and runs reach the open page over the device stream
 * (`events/automation.changed`, `events/automation.run`, residents and admins only); `onEvent`
 * gets what happened, and the page reads what it shows again.
 */
export function useLiveAutomations(
  enabled: boolean,
  onEvent: (topic: 'changed' | 'run', payload: { id?: string; automation_id?: string }) => void,
) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let client: { end(force?: boolean): void } | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      try {
        const [{ default: mqtt }, config] = await Promise.all([import('mqtt'), loadClientConfig()]);
        if (stopped) return;
        const changed = devicehubTopic(config.devicehub_topic_prefix, automationTopics.changed);
        const run = devicehubTopic(config.devicehub_topic_prefix, automationTopics.run);
        const connection = mqtt.connect(streamUrl(window.location), {
          protocolVersion: 4,
          clientId: `automations-${Date.now()}-${Math.floor(Math.random() * 1000)}`,
          clean: true,
          reconnectPeriod: 0,
          username: 'hearth',
          password: getAccessToken() ?? '',
        });
        client = connection;
        connection.on('connect', () => connection.subscribe([changed, run], { qos: 0 }));
        connection.on('message', (topic, payload) => {
          try {
            handler.current(topic === changed ? 'changed' : 'run', JSON.parse(payload.toString()));
          } catch {
            // Not JSON: nothing to do.
          }
        });
        connection.on('close', () => {
          if (!stopped) retry = setTimeout(() => void connect(), RETRY_MS);
        });
      } catch {
        if (!stopped) retry = setTimeout(() => void connect(), RETRY_MS);
      }
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      client?.end(true);
    };
  }, [enabled]);
}
