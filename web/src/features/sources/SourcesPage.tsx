import type { SourceProtocol, SourceStatus } from '@hearth/contracts';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { formatLastSeen, parseTime } from '../devices/model/format.js';
import { sourcesApi } from './sources.api.js';
import { exampleTopic, SOURCES_TEXTS as T } from './sources.messages.js';
import './sources.css';

/**
 * docs/screens.md#sources: for admins, each source of devices (Zigbee2MQTT, Home Assistant
 * discovery, Tasmota, Shelly) on or off as configured, its devices and last message, the configs
 * it refused with the reason and the topic, and "Forget" for a retained config nobody removes any
 * more (Home Assistant users' "ghost entities"): an empty retained message on its topic.
 */
export default function SourcesPage() {
  const { user, loading } = useSession();
  if (loading && !user) return <section className="sources-page" aria-busy="true" />;
  if (user?.role !== 'admin') {
    return (
      <section className="sources-page">
        <p className="no-permission">{T.noPermission}</p>
      </section>
    );
  }
  return <Sources />;
}

function Sources() {
  const { showToast } = useToast();
  const [sources, setSources] = useState<SourceStatus[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ protocol: SourceProtocol; topic: string } | null>(null);

  const load = useCallback(async () => {
    const result = await sourcesApi.list();
    if (result.success) {
      setSources(result.data);
      setError(null);
    } else setError(result.error ?? T.loadFailed);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const forget = async (protocol: SourceProtocol, topic: string) => {
    setAsking(null);
    const result = await sourcesApi.forget(protocol, topic);
    showToast(result.success ? T.forgotten(topic) : (result.error ?? T.loadFailed));
    if (result.success) await load();
    return result.success;
  };

  return (
    <section className="sources-page" aria-labelledby="sources-title">
      <header className="sources-header">
        <Link to="/devices" className="button button--ghost button--small sources-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {T.back}
        </Link>
        <h1 id="sources-title">{T.title}</h1>
        <p className="sources-subtitle">{T.subtitle}</p>
        <button type="button" className="button button--secondary button--small" onClick={() => void load()}>
          <RefreshCw size={14} aria-hidden="true" />
          {T.refresh}
        </button>
      </header>
      {error && (
        <div className="sources-error" role="alert">
          {error}
        </div>
      )}
      {!sources && !error && (
        <p className="sources-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {T.loading}
        </p>
      )}
      {sources?.map((source) => (
        <SourceCard
          key={source.protocol}
          source={source}
          onForget={(topic) => setAsking({ protocol: source.protocol, topic })}
          forget={(topic) => forget(source.protocol, topic)}
        />
      ))}
      {asking && (
        <ForgetDialog
          topic={asking.topic}
          onCancel={() => setAsking(null)}
          onForget={() => void forget(asking.protocol, asking.topic)}
        />
      )}
    </section>
  );
}

function SourceCard({
  source,
  onForget,
  forget,
}: {
  source: SourceStatus;
  /** Asks first, then forgets a refused config's topic. */
  onForget(topic: string): void;
  /** Forgets a topic typed in (asked in the same dialog by the form). */
  forget(topic: string): Promise<boolean>;
}) {
  const titleId = useId();
  const last = parseTime(source.last_message);
  return (
    <article className="sources-card" aria-labelledby={titleId} data-source={source.protocol}>
      <header className="sources-card-header">
        <h2 id={titleId}>{source.name}</h2>
        <span
          className={`badge ${source.enabled ? 'tone-success' : 'tone-muted'}`}
          title={source.enabled ? undefined : T.offHint}
        >
          {source.enabled ? T.on : T.off}
        </span>
      </header>
      <ul className="sources-facts">
        <li>{T.devices(source.devices)}</li>
        <li>{last === null ? T.noMessage : T.lastMessage(formatLastSeen(last, Date.now()))}</li>
        {source.enabled && source.topics.length > 0 && (
          <li>
            <code>{T.reads(source.topics.join(', '))}</code>
          </li>
        )}
      </ul>
      {source.enabled && source.forgets && (
        <>
          <h3 className="sources-subheading">{T.rejected}</h3>
          {source.rejected.length === 0 ? (
            <p className="sources-none">{T.noneRejected}</p>
          ) : (
            <table className="sources-rejected">
              <thead>
                <tr>
                  <th scope="col">{T.topic}</th>
                  <th scope="col">{T.reason}</th>
                  <th scope="col">{T.when}</th>
                  <th scope="col">
                    <span className="visually-hidden">{T.forget}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {source.rejected.map((message) => (
                  <tr key={`${message.topic}|${message.at}`}>
                    <td>
                      <code>{message.topic}</code>
                    </td>
                    <td>{message.reason}</td>
                    <td>{formatLastSeen(parseTime(message.at), Date.now())}</td>
                    <td>
                      {message.forget && (
                        <button
                          type="button"
                          className="button button--secondary button--compact"
                          aria-label={T.forgetLabel(message.forget)}
                          onClick={() => onForget(message.forget as string)}
                        >
                          {T.forget}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <ForgetForm source={source} forget={forget} />
        </>
      )}
    </article>
  );
}

/** Forgets a retained config not among the refused ones: its topic typed in, asked first. */
function ForgetForm({ source, forget }: { source: SourceStatus; forget(topic: string): Promise<boolean> }) {
  const fieldId = useId();
  const [topic, setTopic] = useState('');
  const [asking, setAsking] = useState(false);
  const example = exampleTopic(source.protocol, source.topics[0] === '+' ? undefined : source.topics[0]);
  return (
    <form
      className="sources-forget"
      onSubmit={(event) => {
        event.preventDefault();
        if (topic.trim()) setAsking(true);
      }}
    >
      <label htmlFor={fieldId}>{T.forgetOther}</label>
      <input
        id={fieldId}
        className="input input--compact"
        value={topic}
        placeholder={example}
        spellCheck={false}
        onChange={(event) => setTopic(event.target.value)}
      />
      <button type="submit" className="button button--secondary button--compact" disabled={!topic.trim()}>
        {T.forget}
      </button>
      {asking && (
        <ForgetDialog
          topic={topic.trim()}
          onCancel={() => setAsking(false)}
          onForget={async () => {
            setAsking(false);
            if (await forget(topic.trim())) setTopic('');
          }}
        />
      )}
    </form>
  );
}

function ForgetDialog({ topic, onCancel, onForget }: { topic: string; onCancel(): void; onForget(): void }) {
  const headingId = useId();
  return (
    <Dialog labelledBy={headingId} onClose={onCancel} size="small">
      <h2 id={headingId} className="dialog-title">
        {T.forgetTitle(topic)}
      </h2>
      <p>{T.forgetText}</p>
      <DialogActions leaveLabel={T.cancel} onLeave={onCancel}>
        <button type="button" className="button button--danger" onClick={onForget}>
          {T.forget}
        </button>
      </DialogActions>
    </Dialog>
  );
}
