import type { CreatedPass, CreatePassRequest, Device, Pass, Room } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { passesApi } from './passes.api.js';
import { PASSES_MESSAGES as M } from './passes.messages.js';

/** What the Guest passes page holds: the passes, and the rooms and devices to name and pick. */
export function usePasses(enabled: boolean) {
  const { showToast } = useToast();
  const [passes, setPasses] = useState<Pass[] | null>(null);
  const [timeZone, setTimeZone] = useState('UTC');
  const [rooms, setRooms] = useState<Room[]>([]);
  const [devices, setDevices] = useState<Device[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const result = await passesApi.list();
    if (result.success) {
      setPasses(result.data.passes);
      setTimeZone(result.data.time_zone);
      setError(null);
    } else setError(result.error ?? M.loadFailed);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    void reload();
    void passesApi.rooms().then((result) => result.success && setRooms(result.data.rooms));
    void passesApi.devices().then((result) => result.success && setDevices(result.data));
  }, [enabled, reload]);

  const setPaused = async (pass: Pass, paused: boolean) => {
    setBusy(pass.id);
    const result = await passesApi.pause(pass.id, paused);
    setBusy(null);
    if (!result.success) return showToast(result.error ?? M.updateFailed);
    showToast(paused ? M.paused : M.resumed);
    setPasses((list) => list?.map((p) => (p.id === pass.id ? result.data : p)) ?? null);
  };

  const revoke = async (pass: Pass) => {
    setBusy(pass.id);
    const result = await passesApi.revoke(pass.id);
    setBusy(null);
    if (!result.success) return showToast(result.error ?? M.revokeFailed);
    showToast(M.revoked);
    setPasses((list) => list?.filter((p) => p.id !== pass.id) ?? null);
  };

  /** Resolves with the new pass (its link), or throws with the server's message. */
  const create = async (body: CreatePassRequest): Promise<CreatedPass> => {
    const result = await passesApi.create(body);
    if (!result.success) throw new Error(result.error ?? M.createFailed);
    const { url: _url, ...listed } = result.data;
    setPasses((list) => [listed, ...(list ?? [])]);
    return result.data;
  };

  return { passes, timeZone, rooms, devices, error, busy, setPaused, revoke, create };
}
