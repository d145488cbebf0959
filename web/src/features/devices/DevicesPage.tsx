/** SPEC 2.4: the Devices page. Loaded lazily by the router (the MQTT client comes with it). */
export default function DevicesPage() {
  return <h1>Devices</h1>;
}
