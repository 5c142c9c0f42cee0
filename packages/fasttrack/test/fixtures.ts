import type { Document } from '@factkit/core';

/** A small corpus of four topics (hand-written), five sentences each. */
export const TOPIC_DOCUMENTS: Document[] = [
  'Black Mass grossed 42 million dollars in North America.',
  'Black Mass is a 2015 American crime film starring Johnny Depp.',
  'Johnny Depp played the gangster Whitey Bulger in Black Mass.',
  'The film Black Mass premiered at the Venice Film Festival.',
  'Black Mass received positive reviews for Depp performance.',
  'Kerala reported 182 confirmed coronavirus cases by late March.',
  'The coronavirus pandemic reached Kerala in January 2020.',
  'Kerala placed thousands of people under coronavirus surveillance.',
  'Health officials in Kerala traced contacts of coronavirus patients.',
  'Kerala was the first Indian state with a coronavirus case.',
  'The Scottish Parliament sits in Edinburgh at Holyrood.',
  'A Member of the Scottish Parliament represents a constituency.',
  'Dennis Robertson was a Member of the Scottish Parliament for Aberdeenshire West.',
  'The Scottish Parliament was reconvened in 1999.',
  'Elections to the Scottish Parliament use a mixed member system.',
  'Glaciers in the Alps are retreating due to warming.',
  'Arctic sea ice extent hit a record low in September.',
  'Global warming raises sea levels as glaciers melt.',
  'Sea ice loss in the Arctic accelerates warming.',
  'Mountain glaciers lost mass every year since 1980.',
].map((text, index) => ({ id: `d${index}`, text }));
