"""Wordings each detector must read, and look-alikes it must leave alone, one sentence at a time.

The sentences are written for these tests in the shapes contracts use (never copied from a
filing). Each case names the detector of tools/detection/rules.py or tools/detection/finer_rules.py it exercises;
the CUAD categories map onto detectors in tools/detection/cuad_eval.py. Comments say what general wording
a group of cases stands for. See docs/CUAD.md for how the rules were measured.
"""

from __future__ import annotations

import pytest

from tools.detection.clauses import score_sentence
from tools.detection.rules import DETECTORS

READS: list[tuple[str, str]] = [
    # what a buyer gives up: a sole remedy, in its usual shapes
    ("sole_remedy", "Replacement or repair of the defective goods shall be the Purchaser's sole and exclusive remedy for any breach of warranty."),
    ("sole_remedy", "The Vendor's sole obligation and entire liability for a nonconforming deliverable is to correct it or refund the fees paid for it."),
    ("sole_remedy", "The credits described in Schedule 3 are provided in lieu of all other remedies the Customer may have for late delivery."),
    # warranty disclaimers
    ("warranty_disclaimer", "The Licensor disclaims all implied warranties, including the implied warranties of merchantability and fitness for a particular purpose."),
    ("warranty_disclaimer", "The software is licensed on an \"as is\" basis and the Provider gives no warranty of any kind that it will operate without interruption."),
    ("warranty_disclaimer", "Neither party makes any other representation or warranty, whether express or implied, in connection with this Agreement."),
    # waivers and limits of termination rights or compensation
    ("termination_rights", "The Dealer hereby waives any claim for compensation or indemnity for the loss of its clientele upon the termination or expiry of this Agreement."),
    ("termination_rights", "Neither party shall be entitled to any compensation or severance payment by reason of the non-renewal of this Agreement."),
    ("termination_rights", "The Customer waives its right to terminate or rescind this Agreement other than as expressly provided in Clause 14."),
    # a promised delivery or payment, with the figure written out or redacted
    ("minimum_commitment", "During the second contract year the Publisher will deliver not less than [*] page views to the Advertiser's site."),
    ("minimum_commitment", "The Publisher will deliver not less than XXXXXX page views to the Advertiser during each contract year."),
    ("minimum_commitment", "The Reseller shall purchase at least ***** units of the Product in each calendar quarter."),
    ("minimum_commitment", "For each calendar month of the Term, the Retailer shall pay the Promoter a minimum of [XXX] in cash."),
    ("minimum_commitment", "The Franchisee shall pay a monthly support fee of not less than five hundred dollars ($500)."),
    # a sales threshold that keeps a right alive
    ("minimum_commitment", "The licence becomes non-exclusive if the Reseller fails to achieve annual revenues of $250,000."),
    ("minimum_commitment", "The Distributor must reach net sales of at least $1,000,000 in each contract year to keep its territory."),
    # a minimum named by its period
    ("minimum_commitment", "The Publisher shall use reasonable efforts to keep the traffic to the Site at a monthly minimum of [*] visits."),
    ("minimum_commitment", "The Licensee shall pay the Licensor a quarterly minimum against royalties as set out in Schedule B."),
    ("minimum_commitment", "The Company shall produce not less than twelve (12) original episodes of the program per year."),
    ("minimum_commitment", "Distributor commits to purchase a minimum of 5,000 units during the first contract year."),
    ("minimum_commitment", "Licensee shall pay the minimum annual royalties set out in Exhibit B."),
    ("minimum_commitment", "The Sponsor shall expend not less than $25,000 on local advertising."),
    ("minimum_commitment", "The Publisher will deliver a guaranteed minimum of 2,000,000 impressions per month."),
    ("minimum_commitment", "If the Distributor fails to achieve its annual quota, the Supplier may terminate this Agreement."),
    # a guaranteed figure, a table of least quantities, a floor under royalties
    ("minimum_commitment", "The Network guarantees that it will deliver 500,000 impressions to the Sponsor during the Term."),
    ("minimum_commitment", "The Agency shall place advertisements in at least the following quantities in each contract year:"),
    ("minimum_commitment", "In no event shall the royalties payable in any calendar quarter be reduced to less than half of the amount "
                           "otherwise due."),
    # a share of a party's needs it must buy or route through the other
    ("minimum_commitment", "The Buyer shall purchase at least 80% of its requirements of the Product from the Seller."),
    ("minimum_commitment", "The Company shall route not less than seventy percent (70%) of the total transactions it processes through the Bank."),
    # a sales floor that ends a right, and money a party must put in
    ("minimum_commitment", "The Supplier may terminate this Agreement if the Distributor's annual sales fall below $[*] in any contract year."),
    ("minimum_commitment", "If the Agent sells less than 60% of the yearly target, the Principal may withdraw the Agent's exclusivity."),
    ("minimum_commitment", "The Developer shall use not less than two million dollars ($2,000,000) of the investment to fund the research."),
    ("minimum_commitment", "The Partner shall spend at least an amount equal to the funding it receives under this Section on marketing."),
    # the reason set between the right and its verb
    ("termination_convenience", "The Customer may, at any time and for any reason, terminate this Agreement."),
    ("termination_convenience", "The Buyer may without cause cancel any purchase order before shipment."),
    ("termination_convenience", "The Client may terminate this Agreement (including every statement of work issued under it, other than any "
                                "statement of work on which another statement of work depends for its delivery) or any single statement of "
                                "work for convenience at the end of any calendar month."),
    # an enumerated alternative that is only a notice period outweighs the grounds of the other alternative
    ("termination_convenience", "Either party may terminate this Agreement before the end of the Term: (i) upon sixty (60) days prior written "
                                "notice, or (ii) immediately upon written notice if the other party becomes insolvent."),
    ("termination_convenience", "The Buyer may terminate this Agreement upon written notice (a) in the event the Seller misses a delivery date, "
                                "or (b) at any other time upon thirty (30) days' prior written notice of termination."),
    ("termination_convenience", "This Agreement shall be terminated earlier (1) by written agreement of both parties, or (2) at any time upon "
                                "ninety (90) days written notice to the other party."),
    ("termination_convenience", "Either party may terminate this Agreement by giving the other party sixty (60) days' prior written notice."),
    ("termination_convenience", "The Services may be terminated by either party giving the other at least three months' notice in writing."),
    ("termination_convenience", "The Customer may terminate this Agreement for non-cause with ninety (90) days written notice."),
    ("termination_convenience", "(b) by the Buyer for any reason upon forty-five (45) days' written notice to the Seller;"),
    ("termination_convenience", "(c) At any time upon one hundred twenty (120) days prior written notice of termination to the other party."),
    # a list item naming who may end it, or whose option it is, and nothing but a notice period
    ("termination_convenience", "(c) by either party upon ninety (90) days' prior written notice to the other party; or"),
    ("termination_convenience", "(b) at any time after the first anniversary of the Effective Date, for any reason or no reason, upon "
                                "ninety (90) days' notice to the Supplier; or"),
    ("termination_convenience", "This Agreement shall remain in force until the earlier of (a) the third anniversary of the Effective Date "
                                "and (b) termination by either party without cause."),
    ("termination_convenience", "This Agreement may be terminated at any time, without the payment of any penalty, by the Fund or by the "
                                "Adviser."),
    ("termination_convenience", "The Licensor may terminate this Agreement effective thirty (30) days after delivery of written notice to the "
                                "Licensee."),
    ("termination_convenience", "This Agreement shall terminate (a) at the option of either party, upon sixty (60) days' written notice, or (b) "
                                "if the other party becomes insolvent."),
    ("termination_convenience", "The Network reserves the right throughout the Term to discontinue the distribution of the Service in one or more "
                                "of its regions and to end this arrangement and any related agreements on ninety (90) days' prior notice, without "
                                "any liability to the Affiliate."),
    ("termination_convenience", "Either party may terminate this Agreement at any time on prior written notice to the other."),
    ("termination_convenience", "The Reseller may terminate this Agreement upon prior written notice to the Vendor."),
    ("termination_convenience", "A party wishing to terminate this Agreement must give the other party written notice at least sixty (60) days "
                                "prior to the termination date."),
    ("termination_convenience", "The Licence shall be terminable by either party upon ninety (90) days' written notice to the other party."),
    ("termination_convenience", "The Sponsor shall have the right at any time before the end of the second season to terminate this Agreement "
                                "by giving written notice of termination to the Team."),
    ("termination_convenience", "After the first year this Agreement shall remain in force until terminated by either party upon thirty (30) "
                                "days' written notice."),
    ("termination_convenience", "The Agent may terminate its engagement at any time, for any reason, including if it is dissatisfied with the "
                                "Services."),
    # evergreen terms ended on notice
    ("renewal_notice", "This Agreement shall commence on the Effective Date and shall remain in effect until terminated by either "
                       "Party upon sixty (60) days' prior written notice."),
    ("renewal_notice", "After the initial period the Agreement shall automatically continue in effect until either party gives the "
                       "other at least three (3) months prior written notice of termination."),
    # notice before the expiry of a term or a renewal, the duration after it
    ("renewal_notice", "The Agreement may be cancelled by either party before the expiry of the Agreement or any of its renewals, "
                       "upon two months prior written notice."),
    # a renewal ended by a party's word, the notice period stated elsewhere or redacted
    ("renewal_notice", "The Term is two years from the Effective Date with automatic one year extensions unless otherwise advised by "
                       "one of the Parties."),
    ("renewal_notice", "The term is five years, with automatic renewal for successive one-year terms unless no later than [***] days "
                       "prior to the end of the then-current term either party notifies the other that it wishes to terminate."),
    ("renewal_notice", "This Agreement shall renew automatically for successive one-year terms unless either party gives written "
                       "notice of termination at least sixty (60) days prior to the date of expiration."),
    ("renewal_notice", "The term renews for one-month periods unless either party provides 30 days advance notice of termination."),
    ("renewal_notice", "This Agreement shall automatically be renewed for one (1) year increments unless either party requests in "
                       "writing, at least ninety (90) days prior to the anniversary date, that it not be renewed."),
    ("renewal_notice", "The Agreement shall automatically renew for successive one year terms unless terminated by either party at "
                       "least six months prior to the expiration of the then-current term."),
    ("renewal_notice", "This Agreement may be terminated by either party at the expiration of the initial term or any renewal term "
                       "upon thirty (30) days written notice."),
    ("renewal_notice", "After the Initial Term this Agreement shall continue on a month to month basis until terminated by either "
                       "party upon thirty (30) days prior written notice."),
    # a ban on a whole line of business for a time, with no competitor named
    ("compete_restriction", "During the Term, neither Party shall, directly or indirectly, develop or commercialize any "
                            "other product for the treatment of migraine."),
    ("compete_restriction", "Throughout the Term and for a period of one year thereafter, the Distributor shall not, either "
                            "by itself or through a third party, sell or promote any sleep aid products other than the Products."),
    ("compete_restriction", "During the Term, the Developer will not, independently or with third parties, research or "
                            "manufacture any antibody products outside this Agreement."),
    # the during-the-term ban whose reach ("independently or with a third party") follows the acts
    ("compete_restriction", "During the Term, the Partner will not research, develop or sell any enzyme product for the Field, "
                            "either independently or in collaboration with any third party."),
    ("compete_restriction", "Throughout the term of this Agreement the Lab shall not conduct any assay work in the Field by itself "
                            "or through an affiliate."),
    # a ban on engaging, directly or indirectly, in a rival business
    ("compete_restriction", "Neither Member shall, directly or indirectly, as owner, partner or lender, engage in any enterprise "
                            "which sells water filters in the Region."),
    ("compete_restriction", "The Operator agrees not to directly or indirectly engage in the operation of any hardware store "
                            "within ten miles of the Premises."),
    ("compete_restriction", "The Grower will not itself or through any licensee engage in the development of seed varieties "
                            "for the Crop outside this Agreement."),
    ("compete_restriction", "The Agent shall not, directly or indirectly, enter into any other sales agency agreement with a "
                            "third party for the sale of goods similar to the Products."),
    # an endorser's ban on a rival's brand
    ("compete_restriction", "The Player shall not wear or be associated with any racket maker competitor's equipment."),
    ("compete_restriction", "The Athlete agrees to wear no clothing bearing the logo of a competitor of the Sponsor."),
    # non-compete
    ("compete_restriction", "The Publisher shall not run banner advertisements on the Site for any of the Retailer's competitors."),
    ("compete_restriction", "The Agent agrees not to sell any competing insurance products in the Territory."),
    ("compete_restriction", "The Consultant will not endorse any other product which is directly competitive to the Company's products."),
    ("compete_restriction", "You shall not, without the prior written consent of the Company, either alone or jointly, directly or "
                            "indirectly, carry on or be engaged in any other trade or business."),
    ("compete_restriction", "After such termination the defaulting party shall not enter into an agreement with any other party "
                            "to provide services similar to those provided herein for twelve (12) months."),
    # a ban on competing stated through "prohibit": "prohibiting ... products which are in direct competition"
    ("compete_restriction", "The joint venture agreement shall prohibit competition between the Partners in the Region."),
    ("compete_restriction", "The Team shall avoid the endorsement by its drivers, and is prohibited from endorsing, any beverage "
                            "which is in direct competition with the Sponsor's drinks."),
    # a restraint that outlasts the contract, without the word "compete"
    ("compete_restriction", "The Client will not, directly or indirectly, acquire any technology introduced to it by the Adviser "
                            "for a period of eighteen (18) months following the termination of this Agreement."),
    # exclusivity granted in the operative clauses, as before
    ("exclusivity_grant", "The Owner hereby appoints the Reseller as its exclusive distributor in the Territory."),
    # exclusive dealing: no services for the other side's rivals, services given exclusively
    ("exclusivity_grant", "The Carrier agrees not to provide overnight freight services for any other provider of parcel services."),
    ("exclusivity_grant", "The Contractor shall not sell the Units to any other distributor in the Region."),
    ("exclusivity_grant", "The Studio will provide printing services exclusively, at the Publisher's option, once volumes are met."),
    # a promise not to license third parties
    ("exclusivity_grant", "During the Term, the Owner will not grant any third party any right to advertise on the Portal."),
    ("exclusivity_grant", "The Owner will not grant to any Third Party any rights to the Patents before the Option lapses."),
    # the grant declared exclusive after the fact
    ("exclusivity_grant", "The rights granted to the Sponsor herein are exclusive to the Sponsor within the Beverage Category."),
    ("exclusivity_grant", "Except as stated below, the license granted herein shall be exclusive."),
    # the sole supplier, as before
    ("exclusivity_grant", "The Buyer agrees that the Seller shall be its only supplier of the Components."),
    # exclusivity: a role given to one party alone, an exclusive licence, a promise not to deal with others
    ("exclusivity_grant", "During the Term, Acme shall be the exclusive online travel booking provider on the Portal."),
    ("exclusivity_grant", "The Company appoints the Agent as its exclusive financial advisor for the Offering."),
    ("exclusivity_grant", "Licensor hereby grants Licensee an exclusive, worldwide, royalty-free license to use the Software."),
    ("exclusivity_grant", "Owner grants Operator a perpetual, irrevocable, exclusive and sublicensable right to operate the Marks."),
    ("exclusivity_grant", "Licensor grants Licensee an exclusive (save for the rights reserved to Licensor), non-transferable "
                          "(except as provided in Section 9) and non-sublicensable license to distribute the Content."),
    ("exclusivity_grant", "During the Term the Athlete will not enter into any other endorsement agreement for sports drinks."),
    ("exclusivity_grant", "The Athlete agrees not to grant the right to use his likeness to anyone other than the Sponsor."),
    ("exclusivity_grant", "The Station shall not enter into the same or substantially similar arrangements with any other network."),
    ("exclusivity_grant", "The Distributor shall have an exclusive license under the patents and other intellectual property to sell the Product."),
    # a promise to deal with no other company of the kind, an exclusive option, a passive "exclusively by"
    ("exclusivity_grant", "The Golfer agrees not to enter into an agreement with another company for the purpose of endorsing golf balls."),
    ("exclusivity_grant", "During the Season, the Team will not accept as an official or associate sponsor any other company in the "
                          "Category."),
    ("exclusivity_grant", "The University grants the Company an exclusive option to negotiate a licence to each Invention."),
    ("exclusivity_grant", "All sales in the Territory shall be made exclusively through the Agent."),
    # the adverb before the act or after the grant
    ("exclusivity_grant", "If the Owner seeks more funding, the Investor shall be entitled to exclusively provide that funding."),
    ("exclusivity_grant", "The know-how for the two vaccines will be licensed to the Venture exclusively for the respiratory field."),
    # a franchisor's protected area
    ("exclusivity_grant", "We will not operate or grant others the right to operate a Studio within the Protected Area."),
    # the exclusivity referred to by name
    ("exclusivity_grant", "Once the Buyer stops ordering a Product, the exclusivity rights for that Product will end."),
    # a promise to grant no other licences
    ("exclusivity_grant", "Except as provided herein, the Owner will grant no other licenses for the Region during the Term."),
    # an exclusive relationship
    ("exclusivity_grant", "The Foundation has the sole and exclusive relationship with the League for all events."),
    ("exclusivity_grant", "The parties shall maintain an exclusive business relationship for the Term."),
    # an endorser's promise to endorse no other product of the kind
    ("exclusivity_grant", "During the Term the Actor will not endorse or appear in advertisements for any other sunscreen."),
    # a licence's qualifiers may cite a section with a sub-clause: "(except as provided in Section 2.1(c))"
    ("exclusivity_grant", "The Owner grants the Operator an exclusive, non-transferable (except as provided in Section 9.2(b)) "
                          "and non-sublicensable license to use the Domain Names."),
    ("non_compete", "The Publisher shall not run banner advertisements on the Site for any of the Retailer's competitors."),
    # a party's takeover that lets the other end the contract
    ("change_of_control", "In the event of a change of control of the Distributor, the Supplier may terminate this Agreement "
                          "on thirty (30) days written notice."),
    # a change in who holds a party's shares, said of its "shareholding structure"
    ("change_of_control", "Either Party may terminate this Agreement by written notice if the shareholding structure of the "
                          "other Party changes."),
    ("change_of_control", "The Licensor may end this Agreement if there is a change in the equity structure of the Licensee."),
    # a merger the party does not survive
    ("change_of_control", "If a Party enters into a merger in which it is not the surviving entity and the survivor acquires "
                          "all or substantially all of its assets, the survivor shall assume this Agreement."),
    # change of control
    ("change_of_control", "In the event of the merger or consolidation of the Company with any other entity, the Artist shall "
                          "have the right to terminate this Agreement by written notice."),
    ("change_of_control", "This Agreement shall terminate within thirty (30) days after the Licensee is acquired by a third party."),
    ("change_of_control", "This Agreement shall terminate in the event of a significant change in the management or ownership of the Reseller."),
    ("change_of_control", "The Supplier may terminate this Agreement if the ownership or management of the Distributor has materially "
                          "changed."),
    ("change_of_control", "Any merger, consolidation or reorganization involving the Licensee will be deemed to be a transfer "
                          "requiring the Licensor's consent."),
    ("change_of_control", "As used in this Agreement, the term \"Transfer\" means any sale, gift, pledge, merger or consolidation "
                          "of any interest in the Franchisee or in this Agreement."),
    ("change_of_control", "A \"transfer\" shall be deemed to include a merger of a party with another entity or an acquisition "
                          "of the power to control its management."),
    # a right that ends when a holder's share of the votes falls below a level
    ("change_of_control", "The Distributor may terminate this Agreement on sixty days' notice once the Founder holds less than "
                          "fifty percent (50%) of the voting power of the Supplier."),
    # a takeover by the other party's rival
    ("change_of_control", "In the event of the Distributor's acquisition by a competitor of the Company, the Company may terminate "
                          "this Agreement."),
    ("change_of_control", "The Supplier may terminate this Agreement if the acquirer of the Reseller's business is a direct "
                          "competitor of the Supplier."),
    ("change_of_control", "Upon the Agent's acquisition by a Smith & Co. competitor, the Principal may terminate this Agreement."),
    # an assignment on a takeover that is void, needs the other party's consent or must be notified
    ("change_of_control", "In the case of a merger or a sale of all or substantially all of its assets, any assignment of this "
                          "Agreement by the Reseller shall be void without the Supplier's consent."),
    ("change_of_control", "Either party may assign this Agreement in connection with a merger or a sale of all or substantially all "
                          "of its assets, provided that it gives the other party written notice of the assignment."),
    ("change_of_control", "The Licence may not be assigned, also as a result of a merger or a spin-off, without the prior written "
                          "consent of the Licensor."),
    ("change_of_control", "The Supplier may terminate this Agreement if the Reseller sells all or substantially all of its assets "
                          "to a third party."),
    # "warrants" the verb is not a warrant to buy shares
    ("most_favored_nation", "The Supplier warrants that the prices charged to the Buyer shall be no less favourable than the "
                            "prices charged to any other customer for like quantities."),
    ("most_favored_nation", "The Reseller shall receive the benefit of any more favourable prices the Vendor offers to other resellers."),
    # a grant to others barred on better terms than this party was offered
    ("most_favored_nation", "Licensor shall not grant any licence to a third party at terms more favourable to that third "
                            "party than those offered to Licensee."),
    # most favoured nation
    ("most_favored_nation", "The terms offered to the Reseller shall be no less favourable than the terms in effect with any other reseller."),
    ("most_favored_nation", "The Client will not be charged a higher fee than the Vendor makes available to its other clients."),
    ("most_favored_nation", "The Investor shall have the full benefit of any more favourable terms granted to a later investor."),
    # a ceiling set by what others pay, a better price others must not get, the best rate paid to another
    ("most_favored_nation", "The fees for the Software shall not exceed the fees charged by the Vendor to its other licensees."),
    ("most_favored_nation", "The licence fees shall not exceed the fees charged by the Licensor to unaffiliated third parties."),
    ("most_favored_nation", "The Distributor shall not offer any competitor of the Customer pricing which is better than that offered to "
                            "the Customer."),
    ("most_favored_nation", "If the Supplier grants a retailer lower prices for the Goods than those charged to the Buyer, the Buyer "
                            "shall receive a credit for the difference."),
    ("most_favored_nation", "No other exhibitor shall receive a booth of greater size or better location than the booth given to the Sponsor."),
    ("most_favored_nation", "The Company shall raise the Artist's fee to the highest rate paid by the Company to any other artist for "
                            "a like appearance."),
    ("price_restrictions", "The Supplier warrants that the prices for the Products shall not be increased during the first year."),
    ("price_restrictions", "Any annual adjustment of the Fees shall not exceed five percent (5%) of the Fees then in effect."),
    # price restrictions
    ("price_restrictions", "The parties may renew for another year with fees that do not exceed a five percent increase over the current fees."),
    ("price_restrictions", "Services performed for the Owner on such projects shall be charged at cost without markup."),
    ("price_restrictions", "The Supplier shall not increase the prices set out in Schedule A during the first year."),
    # a cap on an increase per unit is still a cap on raising a price
    ("price_restrictions", "The Supplier may increase the prices of the Products once a year by an amount not to exceed $0.10 per unit."),
    # access to books and records for an audit, however it is granted
    ("audit_rights", "Each party may, at its own cost and on reasonable notice, audit the other party's compliance with this Agreement."),
    ("audit_rights", "The Manufacturer allows the Brand Owner to audit its production of the Products twice a year."),
    ("audit_rights", "The Agent shall make its books available to the Principal on reasonable notice during the Term and for one year after."),
    ("audit_rights", "The partnership's books shall be kept at its principal office in accordance with generally accepted accounting "
                     "principles and shall at all reasonable times be available and open to inspection by each partner."),
    ("audit_rights", "The Reseller shall keep records of all sales and make those records available for review by the Vendor each quarter."),
    ("audit_rights", "The Contractor shall make available for examination and copying all documentation relating to the Services."),
    ("audit_rights", "The Processor shall make available at its offices, during business hours, all books and policies relating to the "
                     "Personal Data."),
    ("audit_rights", "The Borrower shall permit the Lender and its agents, at reasonable times, to review the books and records of the "
                     "Borrower."),
    # access to the books granted as a party's own right, or given with conditions between the verb and the access
    ("audit_rights", "Each member shall have full access to all properties, books of account and records of the Partnership."),
    ("audit_rights", "The Contractor shall provide the Owner, at the Owner's cost and during ordinary business hours, access to and "
                     "copies of its books and records relating to the Work."),
    # an audit by an outsider, in the passive
    ("audit_rights", "All usage reports shall be audited by an independent auditor chosen by the Licensor."),
    # insurance to be acquired, obtained and maintained, or held with stated limits
    ("insurance", "The Partnership may acquire insurance on behalf of any partner against any liability incurred in good faith."),
    ("insurance", "The Tenant is responsible for obtaining and maintaining property insurance sufficient to cover its fixtures."),
    ("insurance", "Exhibitors must have their own liability insurance with limits of two million dollars."),
    ("exclusivity", "During the Term, Acme shall be the exclusive online travel booking provider on the Portal."),
    # a carve-out by cross-reference from an exclusion of indirect damages
    ("uncapped_carveout", "EXCEPT UNDER SECTION 12, IN NO EVENT WILL EITHER PARTY BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES."),
    ("uncapped_carveout", "Excepting only claims made pursuant to Section 7.2, in no event shall either party be liable for lost profits."),
    ("uncapped_carveout", "Except for amounts owed under the indemnities in Section 10, neither party will, under any circumstances, "
                          "be liable to the other party for lost profits."),
    # the cap itself switched off for named breaches
    ("uncapped_carveout", "The Liability Cap will not apply to any breach of confidentiality or to indemnification obligations."),
    ("uncapped_carveout", "Nothing in this Agreement shall exclude or limit either party's liability under Clause 8 (Indemnities)."),
    ("liability_cap", "Under no circumstances will either party be liable to the other for any indirect, special or consequential damages."),
    ("liability_cap", "Each party waives any claim against the other for punitive or exemplary damages."),
    # a time bar on claims is a cap too
    ("liability_cap", "No action arising out of this Agreement may be brought by either party more than one (1) year after the cause of "
                      "action has accrued."),
    ("liability_cap", "Claims for damage to goods must be filed within nine (9) months after delivery."),
    ("liability_cap", "The maximum liability of each party under this Agreement will be the fees paid in the prior year."),
    ("liability_cap", "The Supplier's sole liability shall be to repair or replace the defective product."),
    # an exclusion however many persons stand between "in no event" and "liable"
    ("liability_cap", "In no event shall either party or its officers, directors, agents or employees be liable to the other for any "
                      "special or indirect damages."),
    # a ceiling on what a claim can yield, without the word liability
    ("liability_cap", "Any sums claimed under this indemnification shall not exceed the purchase price received by the Seller."),
    ("liability_cap", "The Sponsor's total obligation under this Agreement will not exceed the sponsorship fee."),
    ("liability_cap", "The Agent shall not be liable for any loss which in the aggregate exceeds the commission paid to it."),
    ("liability_cap", "No underwriter shall be required to contribute any amount in excess of the price at which its notes were offered."),
    ("liability_cap", "The University disclaims all liability for damages, including special and consequential damages, arising from "
                      "use of the Product."),
    # recovery of direct loss only
    ("liability_cap", "Neither party shall have any liability for damages other than direct damages."),
    ("liability_cap", "All claims between the parties shall be limited to actual and direct costs."),
    # liability made subject to limits, an exclusion named as such, an exculpation for errors of judgment
    ("liability_cap", "Each party's liability for claims under this Agreement shall be subject to the following limitations:"),
    ("liability_cap", "The liability exclusion above also extends to the employees of the parties."),
    ("liability_cap", "The Manager shall not be liable for any error of judgment or mistake of law in managing the Fund."),
    ("warranty_duration", "The Vendor warrants that the Goods shall be free from defects in materials and workmanship for a period of "
                          "eighteen (18) months from delivery."),
    ("warranty_duration", "The Seller warrants the Equipment against defects for a period of [***] from installation."),
    ("warranty_duration", "Any defect notified within ninety (90) days of shipment shall be remedied at the Seller's cost."),
    # the figure left only in brackets
    ("warranty_duration", "Any claim under this warranty must be made in writing within (60) days from the date of shipment."),
    ("warranty_duration", "The Warranty Term for each unit begins on the date of its acceptance by the Buyer."),
    ("warranty_duration", "The Buyer may reject any Products that fail to conform to the Specifications by written notice within "
                          "thirty (30) days after receipt of the shipment."),
    ("warranty_duration", "Products not rejected within [***] days of delivery shall be deemed accepted by the Buyer."),
    ("warranty_duration", "Within ten (10) working days after arrival of the goods, the Buyer shall report any shortage or damaged goods."),
    ("post_termination_services", "If this Agreement is terminated by the Customer for the Vendor's default, the Vendor shall continue to "
                                  "provide support to the Customer's existing users."),
    ("post_termination_services", "In the event that the Company terminates this Agreement, the Reseller shall refer all pending inquiries to "
                                  "the Company."),
    ("post_termination_services", "Upon expiration of this Agreement, the Supplier shall deliver to the Buyer all tooling held for the Products."),
    ("post_termination_services", "During the Sell-Off Period the Licensee may continue to distribute Products already manufactured."),
    ("post_termination_services", "For twelve (12) months following termination of this Agreement, the Licensee shall state on its website that "
                                  "it is no longer associated with the Licensor."),
    ("post_termination_services", "Upon expiry of this Agreement, the Provider shall render transition assistance to any successor provider."),
    ("post_termination_services", "Upon termination of this Agreement, the Vendor will (a) provide reasonable assistance in migrating the data."),
    ("post_termination_services", "In the event that the Reseller terminates this Agreement, the Reseller will notify its customers that support "
                                  "has ended."),
    ("post_termination_services", "The Distributor shall keep complete records of all sales for a three (3) year period following the expiration "
                                  "of this Agreement."),
    # an act promised upon the end: performing, completing, delivering
    ("post_termination_services", "Upon termination, the Contractor agrees to perform the handover of all project files then required."),
    ("post_termination_services", "Upon expiry of this Agreement, the Supplier shall complete all purchase orders accepted before that date."),
    ("post_termination_services", "If this Agreement is terminated, the Agent shall promptly deliver to the Principal all customer lists and files."),
    # a right that outlasts the end
    ("post_termination_services", "Upon any expiration or termination of this Agreement, the Reseller shall have a reasonable period of time to "
                                  "remove the Licensor's logos from its website."),
    ("post_termination_services", "Following the termination of this Agreement, the Distributor shall be entitled to sell its remaining inventory "
                                  "for sixty (60) days."),
    ("post_termination_services", "Upon termination, each party shall have the right to remove any reference to the other from its materials."),
    # a passive sell-off, and the end written as "the date of termination"
    ("post_termination_services", "Any Licensed Articles made before the end of the term may be sold by the Licensee during the sixty (60) day "
                                  "period following the date of termination."),
    ("post_termination_services", "The Vendor shall continue to supply spare parts for two years after the date of expiration."),
    # winding down after "a termination", selling off existing stock, a buy-back agreed to, a licence for the time after the end
    ("post_termination_services", "Following a termination of this Agreement, both parties shall unwind their joint marketing programme within "
                                  "ninety (90) days."),
    ("post_termination_services", "The Licensor agrees that the Licensee may distribute its existing inventory of brochures for six months."),
    ("post_termination_services", "In the event this Agreement is terminated, the Company agrees to compensate the Agent for its unrecovered "
                                  "marketing costs."),
    ("post_termination_services", "The Licensor hereby grants to the Licensee, during the Term and after termination of this Agreement, a "
                                  "non-exclusive licence to use the Improvements."),
    ("post_termination_services", "The Retailer may sell or otherwise dispose of any Remaining Goods at its stores for thirty days."),
    ("post_termination_services", "The Sponsor may use its remaining printed and promotional materials until they are exhausted."),
    ("post_termination_services", "If this Agreement expires, any open purchase orders shall be fulfilled on the terms then in force."),
    ("post_termination_services", "On the effective date of termination, the Parties shall negotiate in good faith a fair royalty for the "
                                  "jointly owned inventions."),
    ("liquidated_damages_clause", "If the Buyer ends the contract before the third anniversary, it shall pay the Seller a termination fee equal "
                                  "to six months of charges."),
    ("liquidated_damages_clause", "Should the Customer cancel the order, the Customer agrees to pay a cancellation fee of $2,000 per month remaining."),
    ("liquidated_damages_clause", "The Supplier may elect to receive an early termination penalty in lieu of further performance."),
    ("liquidated_damages_clause", "The Company may end the engagement on three months' notice together with a termination payment equal to one "
                                  "year of retainer."),
    ("liquidated_damages_clause", "The exit fee shall be calculated as twelve months of the average monthly charges."),
    # a sum that grows with each day or week of delay
    ("liquidated_damages_clause", "If the Contractor misses the completion date, it shall pay the Owner $1,000 for each day that "
                                  "completion is delayed."),
    ("liquidated_damages_clause", "The Licensor shall credit the Licensee a late fee for each day past the agreed repair deadline."),
    # a fee for hiring away the other party's staff
    ("liquidated_damages_clause", "If the Client hires any of the Consultant's staff during the Term, the Client shall pay the Consultant "
                                  "a fee equal to six months of that person's salary."),
    # a sum owed on ending measured by what the contract would have paid, or as a multiple of costs
    ("liquidated_damages_clause", "If the Reseller ends this Agreement early, the Reseller shall make payments to the Vendor equal to "
                                  "half of the amounts that would have been payable had this Agreement not been terminated."),
    ("liquidated_damages_clause", "If the Investor terminates this Agreement under Section 9, the Company will pay the Investor an amount "
                                  "equal to two hundred percent (200%) of the costs the Investor has funded."),
    ("liquidated_damages", "If the Supplier fails to deliver by the agreed date, the Supplier shall credit the Buyer two per cent (2%) of the "
                           "order value for each week of delay."),
    ("liquidated_damages", "If the Buyer cancels an accepted order, the Buyer shall pay a cancellation charge of 20% of its price."),
    ("auto_renewal", "The initial term is two years, with automatic one (1) year term extensions unless either party objects."),
    ("auto_renewal", "Thereafter, this Agreement shall automatically continue for successive one-year periods."),
    ("auto_renewal", "This Agreement shall continue for one year and from year to year thereafter unless terminated."),
    ("auto_renewal", "The term shall be extended for a further two (2) years if the sales targets are met."),
    ("auto_renewal", "The Licensee shall have the right to annually renew this Agreement for one year."),
    ("auto_renewal", "The term is five years, extendable for a further five years unless notice of non-renewal is given one year "
                     "before expiry."),
    ("auto_renewal", "The Distributor is appointed on an evergreen basis."),
    # plain covenants and owed fees that the exclusions above must not swallow
    ("compete_restriction", "During the Term the Distributor shall not sell any products that compete with the Products."),
    ("compete_restriction", "The Reseller shall not market any product which competes with the Products, "
                            "in accordance with the terms of this Agreement."),
    ("exclusivity", "The Buyer agrees that the Seller shall be its only supplier of the Components."),
    ("liquidated_damages_clause", "The Customer shall pay the Termination Fee set out in Schedule B."),
    # a guaranteed remaining shelf life is a warranty period
    ("warranty_duration", "All Products delivered to the Distributor shall have a remaining shelf life of at least twelve (12) months."),
    ("warranty_duration", "Each batch shall have, on delivery, a shelf-life of not less than eighteen (18) months."),
]

LEAVES: list[tuple[str, str]] = [
    # remedies kept, a sole responsibility, a warranty given (not disclaimed), a termination right (not waived)
    ("sole_remedy", "The service credits are without prejudice to, and not in lieu of, the Customer's other rights and remedies, and are not its sole remedy."),
    ("sole_remedy", "The Supplier shall be solely responsible, at its sole cost and expense, for the packaging of the goods."),
    ("warranty_disclaimer", "The Supplier warrants that the goods will be free from defects in materials and workmanship for twenty-four (24) months."),
    ("termination_rights", "Either party may terminate this Agreement on thirty (30) days' written notice if the other party materially breaches it."),
    ("termination_rights", "On termination the Distributor shall return all unsold stock and the Supplier shall refund the price paid for it."),
    # severability and disclosure "minimums" are no commitment
    ("minimum_commitment", "Any invalid provision shall be limited to the minimum extent necessary so that the rest of this Agreement "
                           "remains in effect, and the parties shall agree a minimum of two replacement terms."),
    ("minimum_commitment", "The Recipient may disclose only the minimum amount of the other party's information reasonably necessary to "
                           "comply with a court order."),
    # notice days are no quantity
    ("minimum_commitment", "The Buyer will pay each invoice and deliver its forecast at least thirty (30) days before the quarter begins."),
    # a period and a minimum that are not one phrase
    ("minimum_commitment", "The annual report shall state the minimum of the readings taken."),
    ("minimum_commitment", "The annual meeting requires a minimum quorum of members."),
    ("minimum_commitment", "The steering committee shall meet at least four (4) times per calendar year."),
    ("minimum_commitment", "The Contractor shall maintain liability insurance with a minimum of $1,000,000 per occurrence."),
    ("minimum_commitment", "Purchaser shall place each purchase order at least forty-five (45) days before the requested delivery date."),
    ("minimum_commitment", "Service availability shall be a minimum of 99.5 percent in each calendar month."),
    # a guaranteed delivery time or share is no guaranteed quantity
    ("minimum_commitment", "The Seller guarantees that it will deliver the Products within thirty (30) days of each order."),
    ("minimum_commitment", "The Supplier guarantees that it will deliver 98% of the ordered Products by the delivery date."),
    ("minimum_commitment", "The Supplier shall deliver at least 95% of the purchase orders on time."),
    ("minimum_commitment", "This licence does not include a minimum annual royalty payable by the Licensee."),
    ("minimum_commitment", "Any provision that conflicts with applicable law shall be read so as to satisfy the minimum requirements of that law."),
    # "for convenience of reference" is about headings, however far it stands from a termination right
    ("termination_convenience", "The Client may terminate this Agreement under Section 9 (including every statement of work issued under it, "
                                "other than any statement of work on which another statement of work depends for its delivery), and the "
                                "headings in that Section are for convenience of reference only."),
    # a right the holder promises not to use but on conditions
    ("termination_convenience", "The Insurer shall have the right to terminate this Agreement upon thirty (30) days' prior written notice, "
                                "provided that the Insurer agrees not to terminate this Agreement unless it sells the Company."),
    # the notice period belongs to a ground: the alternative does not end at the notice
    ("termination_convenience", "Either party may terminate this Agreement (i) upon thirty (30) days written notice, if the other party "
                                "materially breaches this Agreement, or (ii) immediately if the other party becomes insolvent."),
    # a notice period that is no alternative of a termination right
    ("termination_convenience", "Either party may terminate this Agreement if the other party fails to cure a breach (a) within thirty (30) "
                                "days after notice of the breach."),
    # a right that hangs on a breach, an event, a change of control or a cure period
    ("termination_convenience", "If the other party violates this Agreement, either party may terminate it upon thirty (30) days' written notice."),
    ("termination_convenience", "In the event that a force majeure event continues for ninety (90) days, the other party may terminate this "
                                "Agreement upon ten (10) days' notice."),
    ("termination_convenience", "Either party may terminate this Agreement upon sixty (60) days notice following a change of control of the "
                                "other party."),
    ("termination_convenience", "At its sole discretion the Sponsor may elect to terminate the banner campaign once the number of visitors "
                                "exceeds fifty thousand."),
    # "for any reason" said of another ending
    ("termination_convenience", "This Agreement may be terminated at any time by either party should the Consultant's engagement with the "
                                "Company terminate for any reason."),
    ("termination_convenience", "This Agreement may be terminated by either party upon thirty (30) days written notice and an opportunity to cure."),
    # ending at the end of a term is non-renewal
    ("termination_convenience", "Either party may terminate this Agreement at the end of the initial term by giving the other party ninety (90) "
                                "days' written notice."),
    # no right at all
    ("termination_convenience", "The licence granted in this Article shall not be terminable for any reason."),
    ("termination_convenience", "Termination for Convenience - This Agreement may not be terminated by either party for its own convenience."),
    # a lead-in to a list of grounds, a board vote, a cross-reference, an immediate termination
    ("termination_convenience", "The Agent may terminate this Agreement by giving notice at any time before closing on any of the following "
                                "grounds:"),
    ("termination_convenience", "This Agreement may be terminated at any time, without penalty, by a vote of a majority of the Board on sixty "
                                "(60) days' written notice."),
    ("termination_convenience", "This Addendum may be terminated at any time by either party in accordance with the termination provisions of "
                                "the Master Agreement."),
    ("termination_convenience", "The Seller may terminate this Agreement immediately upon written notice to the Buyer."),
    ("termination_convenience", "Upon termination by either party for any reason, the Distributor shall return all price lists."),
    ("termination_convenience", "The Licensee may not for any reason terminate this Agreement during the first contract year."),
    # a fixed end date with no renewal and no notice to end one
    ("renewal_notice", "This Agreement shall remain in effect for three (3) years and shall then expire."),
    # notice that exercises an option to extend is not notice to end a renewal
    ("renewal_notice", "The Buyer may extend the term for a further year by giving notice of its election to extend at least sixty "
                       "(60) days before the end of the term."),
    # a renewal only by a fresh agreement of the parties
    ("renewal_notice", "The Term shall be extended for further one year periods upon the mutual agreement of the parties, and a party "
                       "that wants an extension shall notify the other at least ninety (90) days prior to the end of the Term."),
    ("renewal_notice", "After the Initial Term this Agreement may only be renewed if both parties agree in writing at least thirty (30) "
                       "days before the expiration of the Initial Term."),
    # notice that exercises a renewal option is not notice to end the renewal
    ("renewal_notice", "The Distributor may exercise its renewal option by giving written notice no later than six (6) months prior "
                       "to the expiration of the term."),
    ("renewal_notice", "If either party wishes to extend the term, it shall give notice to the other not later than ninety (90) days "
                       "before the end of the term."),
    ("renewal_notice", "You shall give us notice in writing of your election to renew at least three (3) months prior to the "
                       "expiration of the term."),
    ("renewal_notice", "The Supplier may, by written notice given at least sixty (60) days prior to the end of the term, extend the "
                       "term of this Agreement for one further year."),
    # with no time limit, a limit on what may be done with the licensed products is no non-compete
    ("compete_restriction", "The Licensee shall not, directly or indirectly, sell any Licensed Products to any person "
                            "except Approved Customers."),
    # a promise not to disclose, however long it runs, is no restraint on trade
    ("compete_restriction", "During the Term, the Recipient shall not, directly or indirectly, disclose any Confidential "
                            "Information to any third party."),
    # freedoms worded as "shall not be prevented from" / "deemed not to be preventing"
    ("compete_restriction", "The Consultant's service on other boards shall be deemed not to be preventing the Consultant from "
                            "performing hereunder, so long as those activities are not directly competitive with the Company."),
    ("compete_restriction", "The Distributor shall not be prevented from selling competing products outside the Territory."),
    # a grant conditioned on a covenant that lives in another agreement
    ("compete_restriction", "Subject to the Seller's compliance with the covenant not to compete in Section 6 of the Purchase "
                            "Agreement, the Buyer grants the Seller a non-exclusive license to use the Patents."),
    ("compete_restriction", "The Client grants the Bureau a nonexclusive right to use the Data in accordance with the "
                            "Non-Competition Agreement."),
    # a fee "competitive with" market rates
    ("compete_restriction", "The Manager shall not keep the whole fee but will pass on to the dealers an amount competitive "
                            "with the customary underwriting discounts."),
    # freedoms, representations and definitions that merely mention competition
    ("compete_restriction", "Nothing in this Agreement shall preclude the Licensor from licensing the Mark to other entities, "
                            "whether or not such entity competes with the Licensee."),
    ("compete_restriction", "The Consultant is not under any obligation, including any obligation of non-competition, "
                            "which prevents the Consultant from performing this Agreement."),
    # a freedom that opens with a cross-reference before "nothing", and a run-in heading that only names the clause
    ("compete_restriction", "Except as otherwise set forth in Section 5, nothing in this Agreement will prohibit either Party from "
                            "developing products that compete with the other Party's products."),
    ("compete_restriction", "(iv) Employment; Noncompetition; Confidentiality."),
    # a no-hire term of the post-termination shape is no restraint on competing
    ("compete_restriction", "The Client will not, directly or indirectly, solicit or hire any employee of the Adviser for a period "
                            "of twelve (12) months following the termination of this Agreement."),
    ("compete_restriction", "The Supplier may place two non-competitive third party logos on the packaging."),
    ("compete_restriction", "\"Competing Product\" means any product that competes with the Product in the Territory."),
    ("compete_restriction", "The support services include, but are not limited to, supporting products sold to any of the "
                            "Customer's competitors."),
    # a past fact ("items we have not approved") negates no promise to buy from others
    ("exclusivity_grant", "If the Franchisee wishes to offer menu items that we have not approved, or buy from a vendor or other "
                          "source, it must first ask us in writing."),
    # another document named by its title grants nothing here
    ("exclusivity_grant", "The Exclusive Supply Agreement and the Warrant are each effective as of the Closing Date."),
    # a passive "exclusively by" that names governing terms or law
    ("exclusivity_grant", "Any dispute about the Products sold hereunder shall be governed exclusively by the laws of Delaware."),
    # a recital tells the background; it grants no exclusive right
    ("exclusivity_grant", "WHEREAS, the Sponsor desires to acquire the exclusive right to be the lead sponsor of the Event;"),
    ("exclusivity_grant", "W I T N E S S E T H: WHEREAS, the Supplier has appointed the Agent as its exclusive agent under a prior agreement;"),
    # a role word before a capitalised noun names a defined group, not a sole supplier
    ("exclusivity_grant", "The Contractor will ensure that only Vendor Personnel are allowed to enter the Customer's premises."),
    # "exclusive of" taxes or other remedies
    ("exclusivity_grant", "All license fees are exclusive of sales, use and similar taxes, which the Licensee shall bear."),
    ("exclusivity_grant", "The rights and remedies herein are cumulative and shall not be exclusive of any other remedy."),
    # ownership of intellectual property and decision rights are not exclusivity
    ("exclusivity_grant", "All trademarks used by the Distributor shall remain the sole and exclusive property of the Manufacturer."),
    ("exclusivity_grant", "The Licensee acknowledges the Licensor's exclusive right, title and interest in and to the Marks."),
    ("exclusivity_grant", "The Licensor shall have the exclusive right, but not the obligation, to prosecute any infringement of the Marks."),
    ("exclusivity_grant", "Each party shall have the exclusive right to remove and replace its own representatives on the committee."),
    ("exclusivity_grant", "The Developer owns the sole and exclusive right of the intellectual property in all improvements."),
    # non-exclusive grants, disclaimed exclusivity
    ("exclusivity_grant", "The Supplier grants the Reseller a non- exclusive, worldwide, royalty-free license to use the Software."),
    ("exclusivity_grant", "The Company appoints the Dealer as its non-exclusive authorized dealer for the Products."),
    ("exclusivity_grant", "The Sponsor acknowledges that it does not and will not have exclusive rights at the Event."),
    ("exclusivity_grant", "The parties will not enter into any other agreement with respect to the Bank Accounts."),
    ("exclusivity_grant", "The Actor will not endorse any other product which is directly competitive to the Sponsor's products."),
    ("exclusivity_grant", "The parties have a non-exclusive relationship and each may deal with others."),
    ("exclusivity_grant", "The Sponsor shall pay an exclusivity fee of $10,000 on signature."),
    ("non_compete", "The Distributor shall not be prevented from selling competing products outside the Territory."),
    # an executive's severance when the employer changes hands
    ("change_of_control", "If the Executive terminates employment for Good Reason within twelve months after a Change in "
                          "Control, the Company shall pay the severance set out in Section 5."),
    # change of control needs a change of owner, not any termination
    ("change_of_control", "Either party may terminate this Agreement if the other party fails to cure a material breach."),
    # a definition of the event, the SEC's ownership reports, an adviser's vesting on a takeover
    ("change_of_control", "\"Change of Control\" means the acquisition by any person of more than fifty percent of the voting "
                          "stock of a Party."),
    ("change_of_control", "For purposes of this Section, a \"change in control\" shall mean a merger or a sale of all or substantially "
                          "all of the assets of the Company."),
    ("change_of_control", "Changes in the holdings of the participants will be reported on Statements of Changes in Beneficial "
                          "Ownership on Forms 3 and 4 filed with the SEC."),
    ("change_of_control", "Upon a change of control of the Company, all unvested options held by the Consultant shall vest immediately."),
    ("change_of_control", "In this Agreement: (a) \"Affiliate\" has the meaning given above; and (b) \"Change of Control\" means "
                          "a merger of the Company with another entity."),
    # a party's own purchase of a stake in a rival is a non-compete matter, not its takeover
    ("change_of_control", "The Distributor shall not acquire any interest in a competitor of the Supplier during the Term."),
    # a takeover that frees a party to assign, or that is no assignment at all
    ("change_of_control", "The Reseller may assign this Agreement without consent in connection with a change of control of the Reseller."),
    ("change_of_control", "A change of control of the Licensee shall not be deemed an assignment of this Agreement."),
    ("change_of_control", "No subcontracting by either party shall be deemed an assignment, nor shall any change in control of "
                          "either party be deemed an assignment of this Agreement."),
    # a free assignment to a successor (the CUAD labels of supplier contracts leave it out)
    ("change_of_control", "Either party may assign this Agreement to a successor in connection with a merger or the sale of all or "
                          "substantially all of its assets."),
    # terms of a sale of shares, a lock-up or a warrant, not the price of goods or services
    ("most_favored_nation", "The Seller may then sell the shares to a third party on terms no more favourable than those "
                            "offered to the other shareholders, including the price."),
    ("most_favored_nation", "Holder will sign a lock-up agreement with the underwriters, on terms not less favourable to Holder "
                            "than the terms agreed with any other holder."),
    # an arm's-length standard for dealings with affiliates is not most-favoured pricing
    ("most_favored_nation", "The Servicer may deal with its Affiliates, provided that the terms are no less favourable to the Owner "
                            "than would be available from unaffiliated parties."),
    ("price_restrictions", "The exercise price of the warrants shall be one dollar per share and shall not be increased for any reason."),
    ("price_restrictions", "The Company shall issue to the Consultant a warrant to purchase common stock, and its price "
                           "shall not be changed."),
    # a cap on fees or expenses is not a restriction on raising a price
    ("price_restrictions", "The Company will reimburse the Agent's legal fees and expenses, which shall not exceed $50,000."),
    ("price_restrictions", "If the closing is delayed, the fees paid to the Adviser may be increased by an additional amount not to "
                           "exceed $25,000."),
    # a test that verifies an effect on a web site, a review of records by counsel, published audited accounts,
    # a catalogue of activities and a task title in capitals are no right to audit
    ("audit_rights", "If the trial verifies that the pop-up window harms traffic to the Partner's Site, the Partner may remove it."),
    ("audit_rights", "Based on a review of corporate records of the Company, counsel is not aware of any pending litigation."),
    ("audit_rights", "The Executive forfeits the bonus if his fraud causes the audited accounts of a Group Company to be restated."),
    ("audit_rights", "The Field means the design, engineering, procurement, fabrication, construction, installation, supply, training, "
                     "delivery, inspection, testing, operations, maintenance, repair and replacement of boiler plants."),
    ("audit_rights", "INSPECTION OF THE GENERAL SITE CONDITIONS, INVERTERS, WIRING AND MOUNTING STRUCTURES AT EACH PLANT."),
    ("price_restrictions", "The Supplier may adjust its prices from time to time, including but not limited to raising or lowering them."),
    ("exclusivity", "All trademarks used by the Distributor shall remain the sole and exclusive property of the Manufacturer."),
    # claims-procedure boilerplate of an indemnity
    ("uncapped_carveout", "If the indemnifying party assumes the defense of such claim, the indemnifying party shall not be liable for legal "
                          "expenses subsequently incurred by the indemnified party, other than reasonable costs of investigation."),
    # liability the law never lets be limited, and a standard of care
    ("uncapped_carveout", "Nothing in this Agreement shall limit either party's liability for death or personal injury caused by its negligence."),
    ("uncapped_carveout", "Nothing in this Agreement shall limit or exclude the liability of either party for fraud or fraudulent misrepresentation."),
    ("uncapped_carveout", "The Consultant shall not be liable for any act or omission except for its gross negligence or willful misconduct."),
    # "exceed" about fees, not liability
    ("uncapped_carveout", "Upon termination the Agent shall continue to receive its fee, except on termination under Section 5.2, provided "
                          "that no fee is payable for any month in which collections do not exceed $500."),
    ("liability_cap", "Appearing in the proceeding shall not be construed as an admission of liability, including but not limited to "
                      "any waiver of the right to counsel."),
    ("liability_cap", "All permits required for the works shall be the sole responsibility of the Contractor."),
    ("liability_cap", "Each party waives any right to trial by jury of any claim arising under or incidental to this Agreement."),
    ("liability_cap", "The Company does not have any liabilities, direct or indirect, that are not disclosed in its financial statements."),
    # an excess of volume, not of money; a ceiling on reimbursed expenses; debts of another; liability "direct or indirect"
    ("liability_cap", "The Seller shall not be liable for rejecting any order whose volume exceeds the volume in the forecast."),
    ("liability_cap", "The Company shall reimburse the Investor's legal expenses, provided that such reimbursement shall not exceed $50,000."),
    ("liability_cap", "In no event shall any partner have any liability for any debts or obligations of any other partner."),
    ("liability_cap", "The Agent shall not have any liability (whether direct or indirect, in contract or otherwise) to the Company's "
                      "creditors."),
    # insurance merely named beside a purchasing group
    ("insurance", "The Licensee shall negotiate with group purchasing organizations and health insurance companies."),
    # securities warrants
    ("warranty_duration", "The Warrants shall be exercisable for a period of five (5) years from their date of issue."),
    ("warranty_duration", "All options and warrants held by the Consultant may be exercised for one (1) year after his departure."),
    # the parties' general representations, their survival, and a breach cure period
    ("warranty_duration", "Either party may terminate this Agreement if the other materially breaches its representations, warranties or "
                          "covenants and fails to cure the breach within thirty (30) days after notice."),
    ("warranty_duration", "All representations and warranties of the parties shall survive for a period of two (2) years from the Closing."),
    # promises for the life of the contract
    ("warranty_duration", "The Agent represents and warrants that it will not grant similar rights to anyone during the Term and for a "
                          "period of one (1) year thereafter."),
    ("warranty_duration", "The Licensee warrants to pay the fees within fifteen (15) days of each invoice."),
    # approving marketing material or purchase orders is no rejection of goods
    ("warranty_duration", "The Licensor shall approve or reject any advertising materials within fourteen (14) days of receipt."),
    ("warranty_duration", "The Supplier will accept or reject each purchase order within five (5) days after receipt of the order."),
    # survival clauses keep terms alive but promise no service
    ("post_termination_services", "Upon termination of this Agreement, Sections 4, 7 and 9 shall continue to have binding effect on the parties."),
    ("post_termination_services", "Any rights and obligations which by their nature survive shall survive after termination of this Agreement."),
    # settling what was earned before the end
    ("post_termination_services", "Upon termination of this Agreement, the Buyer shall pay all amounts payable up to the date of termination."),
    # an ending other than the contract's, or a transition that is no wind-down
    ("post_termination_services", "The Auditor's certificate shall be delivered within three (3) months after expiry of each financial year of "
                                  "the Licensee and the Licensee shall pay any shortfall."),
    ("post_termination_services", "The Licensee may use the marks during the Transition Period set out in the separation agreement."),
    # return or destruction of secrets, and no-hire covenants
    ("post_termination_services", "Upon termination of this Agreement, each party shall return or destroy the other party's trade secrets."),
    ("post_termination_services", "For a period of one (1) year following termination of this Agreement, neither party shall solicit or hire the "
                                  "other party's employees."),
    # a fee for ending early is liquidated damages, not a service after the end
    ("post_termination_services", "In the event the Customer terminates this Agreement for convenience, the Customer will pay the early "
                                  "termination charges set out below."),
    # a survival term for confidentiality, however many end-of-term wordings it repeats
    ("post_termination_services", "The confidentiality obligations herein shall continue during the Term and for a period of three (3) years after "
                                  "termination or expiry of this Agreement."),
    # a non-circumvention covenant that runs past the end
    ("post_termination_services", "The Consultant shall not circumvent the Company's relationships with its vendors for a period of two (2) years "
                                  "following termination of this Agreement."),
    # a covenant not to act after the end, and a transition after the closing of an acquisition
    ("post_termination_services", "The Distributor will not approach the Manufacturer's suppliers for a period of eighteen (18) months following "
                                  "the termination of this Agreement."),
    ("post_termination_services", "For a period of one hundred twenty (120) days after the Closing Date (the \"Transition Period\"), the Buyer may "
                                  "use the Seller's trade names."),
    # services that stop at the end
    ("post_termination_services", "Upon termination of this Agreement, the Developer shall immediately cease to perform the development services."),
    # "provider" and "seller" are no act that continues
    ("post_termination_services", "Either party may appoint a new logistics provider for one (1) year, beginning on the day following termination "
                                  "of this Agreement."),
    # a right the end takes away
    ("post_termination_services", "Upon termination of this Agreement, the Licensee shall no longer have the right to use the Licensor's marks."),
    ("post_termination_services", "Upon expiry of this Agreement, the Distributor shall not have any right to sell the Products."),
    # an entry of a table of contents
    ("post_termination_services", "Section 12.3 Transition Assistance upon Termination or Expiration ........................................ 41"),
    # a sale before the end is no obligation after it
    ("post_termination_services", "Products sold before the date of termination shall be invoiced at the prices then in force."),
    # the end of a force majeure event, not of the contract (read by the contract-end wording itself)
    ("post_termination_services", "Upon the termination of such force majeure event, the affected party shall promptly resume performance and "
                                  "continue to deliver the Products."),
    ("liquidated_damages_clause", "The Buyer may terminate this Agreement immediately and without any early termination penalty if the Seller "
                                  "breaches the anti-bribery laws."),
    ("liquidated_damages_clause", "Neither party shall be liable to pay any termination fees upon expiry of the Term."),
    ("liquidated_damages_clause", "The Distributor shall pay the fees set out in Schedule B within thirty (30) days of each invoice."),
    ("liquidated_damages_clause", "Neither party shall be obliged to pay any termination charges upon expiry of the Term."),
    # interest on a late payment is no stipulated sum
    ("liquidated_damages_clause", "Overdue invoices accrue interest of 0.05% for each day that they remain overdue."),
    # a notice that tells of such clauses
    ("liquidated_damages_clause", "The franchise agreement you will sign contains a liquidated damages clause."),
    ("liquidated_damages_clause", "In some states liquidated damages clauses are unenforceable."),
    # pay for staff a party hires for itself
    ("liquidated_damages_clause", "The Staffing Agency shall hire the workers and the Client shall pay a fee equal to their hourly wages "
                                  "plus a margin."),
    # a credit for goods sent back is a refund
    ("liquidated_damages", "The Seller shall credit the Distributor's account with the price paid for any returned Products."),
    ("liquidated_damages", "If the goods are found defective, the Manufacturer shall credit the Customer with their invoiced value."),
    # freedom from a termination fee
    ("liquidated_damages", "The Customer shall not be liable for any termination charges when it ends this Agreement for the Supplier's "
                           "breach."),
    ("auto_renewal", "The licence rights do not automatically extend to any affiliate of the Licensee."),
    ("auto_renewal", "WHEREAS, the parties wish to extend the term of the Statement of Work to cover additional services;"),
    ("auto_renewal", "If a force majeure event occurs, the time for performance shall be automatically extended for a period equal "
                     "to the delay."),
    ("auto_renewal", "The Franchisee acknowledges that this Agreement is non-renewable."),
    ("auto_renewal", "This Agreement is effective from the date of signing and shall continue in effect thereafter until terminated "
                     "under Section 9."),
    ("auto_renewal", "Customer payments are settled daily through the Evergreen Gateway."),
    # a defined group of people is no sole supplier
    ("exclusivity", "The Contractor will ensure that only Vendor Personnel are allowed to enter the Customer's premises."),
    # a defined term merely named (a heading, a cross-reference) states no sum owed
    ("liquidated_damages_clause", "The Termination Fee is described in Schedule B."),
    # the shelf life merely mentioned, with no length promised
    ("warranty_duration", "The shelf life of each Product shall be printed on its label."),
]


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("detector_id, sentence", READS)
def test_detector_reads_the_wording(detector_id: str, sentence: str) -> None:
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", LEAVES)
def test_detector_leaves_the_look_alike(detector_id: str, sentence: str) -> None:
    assert not fires(detector_id, sentence)
