// Schemas of the wiki area: requests and answers, shared by the API and the web app.
export {};
