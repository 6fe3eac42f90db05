// Schemas of the reports area: requests and answers, shared by the API and the web app.
export {};
