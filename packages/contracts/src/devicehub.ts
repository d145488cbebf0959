/** Topics and payloads of the device hub (SPEC 3.10–3.13, 7.2, 7.3), shared by server and web app. */
export {};
