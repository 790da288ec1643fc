/**
 * Cue phrases that override a sentence's role where the words leave no doubt, whatever the classifier or the
 * section label says. Kept few on purpose: the classifier (classifier.ts) decides everything else.
 */

/**
 * A call for further research ("Further studies are needed …", "Future trials should investigate …", "… warrants
 * further investigation"): it states what is not known, so it is never a finding, even under a CONCLUSIONS label.
 */
const CALL_FOR_RESEARCH = new RegExp(
  [
    String.raw`\b(?:further|future|additional|more|larger|prospective|randomi[sz]ed|well-designed|longer-term)` +
      String.raw`(?: \p{L}+)?? (?:studies|research|trials?|investigations?|work|evaluation|data)` +
      String.raw` (?:is |are )?(?:needed|warranted|required|necessary|should|must|will be needed)`,
    String.raw`\b(?:remains?|needs?|have|has) to be (?:elucidated|determined|clarified|confirmed|established|` +
      String.raw`validated|investigated|explored)`,
    String.raw`\bwarrants? (?:further|additional|more)\b`,
    String.raw`\bshould be (?:further )?(?:investigated|explored|studied|evaluated|examined|addressed|tested)\b` +
      String.raw`(?! (?:in|with) (?:this|our))`,
    String.raw`\b(?:need|call)s? for (?:further |more |additional |future |new )?(?:\p{L}+ )?` +
      String.raw`(?:studies|research|trials?|investigations?)\b`,
  ].join("|"),
  "iu",
);

/** True when the sentence calls for more research (see CALL_FOR_RESEARCH); such a sentence is never a finding. */
export function isCallForResearch(sentence: string): boolean {
  return CALL_FOR_RESEARCH.test(sentence);
}

/**
 * A statement of what a review, essay or paper covers ("In this review, we describe …", "We also discuss the main
 * obstacles …", "This article discusses …", "… are discussed."): its aim, not a finding. Structured abstracts, the
 * classifier's training data, rarely contain one, so the classifier tends to take these closing sentences of a review
 * for conclusions.
 */
const SCOPE_STATEMENT = new RegExp(
  [
    String.raw`^(?:(?:in )?(?:this|the present|our) ` +
      String.raw`(?:review|article|paper|chapter|overview|commentary|essay|editorial),? |here,? )?` +
      String.raw`(?:we|the authors?) (?:also |further |then |briefly |first )?` +
      String.raw`(?:describe|discuss|summari[sz]e|review|focus on|highlight|outline|` +
      // "We provide an in-depth review on …" (PMID 26215189): up to two words may qualify the review.
      String.raw`(?:provide|present|give|offer) an? (?:[\p{L}-]+ ){0,2}(?:overview|summary|update|review|account)|` +
      String.raw`consider|examine the (?:literature|evidence))\b`,
    // The paper as the subject: "This article discusses the incidence, causes, …" (PMID 20868883). Not "highlights"
    // or "shows": "Our report highlights the importance of …" is a conclusion.
    String.raw`^(?:this|the present|our) (?:review|article|paper|chapter|overview|commentary|essay|editorial) ` +
      String.raw`(?:also |briefly |then )?` +
      String.raw`(?:discusses|reviews|describes|summari[sz]es|outlines|focuses on|addresses)\b`,
    // "Methods for distinguishing … are discussed." (PMID 55), "The implications … are discussed."
    String.raw`\b(?:is|are) (?:also |then |briefly |further )?discussed[.!]?$`,
  ].join("|"),
  "iu",
);

/** True when the sentence states the scope of a review or paper (see SCOPE_STATEMENT); never a finding. */
export function isScopeStatement(sentence: string): boolean {
  return SCOPE_STATEMENT.test(sentence);
}

/** A copyright or publisher line that some abstracts end with ("Copyright © 2018 …", "Published by Wiley …"). */
const PUBLISHER_NOTICE = /^(?:copyright\b|©|\(c\) (?:19|20)\d\d\b|published by\b)|\ball rights reserved\b/iu;

/** True for a copyright or publisher line (see PUBLISHER_NOTICE): part of no argument, never a finding. */
export function isPublisherNotice(sentence: string): boolean {
  return PUBLISHER_NOTICE.test(sentence);
}

/**
 * Lines that answer no question (issue 37 item 5): a citation line ("Cite this article: Bone Joint J
 * 2016;98-B:1240-47."), a level-of-evidence or trial-registration line, a claim of novelty ("To our knowledge this is
 * the first reported series …"), and statements of intent or of work in progress ("Efforts are underway …", "Future
 * studies will be useful …"). Never findings, whatever their label.
 */
const BOILERPLATE = new RegExp(
  [
    String.raw`^cite this article\b`,
    String.raw`^(?:level of evidence|evidence level|trial registration|clinical trial registration)\b`,
    String.raw`\b(?:registered (?:at|with|in)|clinicaltrials\.gov|ISRCTN\d|NCT\d{8})`,
    String.raw`^to (?:the best of )?(?:our|the authors['’]?) knowledge\b`,
    String.raw`\b(?:efforts|work|studies|research|trials?) (?:is|are) (?:now )?(?:underway|under way|ongoing|in progress)\b`,
    String.raw`\b(?:further|future|additional|more) (?:\p{L}+ )?(?:studies|research|trials?|work) (?:will|would|may|might|could) be (?:useful|helpful|valuable|of interest|informative|needed|necessary)\b`,
  ].join("|"),
  "iu",
);

/** True for a line that is no finding whatever its label (see BOILERPLATE). */
export function isBoilerplate(sentence: string): boolean {
  return BOILERPLATE.test(sentence);
}
